/**
 * The reader's basket (issue 26 point 1, decision 0073): its lines, and their prices as the server sees
 * them now. A visitor's basket lives in the browser and is priced by the same functions.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { CURRENCY, type PurchaseFormat, formatLabel, formatPrice, isDigitalFormat } from '@shared/constants';
import { BASKET_MESSAGES, type Basket, type BasketItemRequest, type BasketLine, type BasketShipping, type FormatItemRequest, isBundleRequest } from '@shared/schemas/basket';
import { SHIPPING_MESSAGES } from '@shared/schemas/shipping';
import { discountedPrice } from '@shared/schemas/discounts';
import type { DbOrTx } from '../../db/client';
import { basketItems, bookPrices, books, digitalAssets } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import { saleState } from '../pre-orders/service';
import { ownsFormat } from '../library/service';
import { type DiscountRow, appliesTo, discountRefusedError, inapplicable, usableCode } from '../discounts/service';
import { alreadyOwned } from './repeat-purchases';
import { type OrderTotals, orderTotals } from './order-totals';
import { countryName, shippingCountries } from '../shipping/service';
import { type ChargedPart, type StoredBundleLine, addBundleItem, priceBundleLines } from './basket-bundles';
import { LINE_PROBLEMS, lineName } from './line-problems';

/** One line as stored (or as a visitor's browser keeps it). */
export interface StoredLine {
  id: number | null;
  bookId: number;
  format: PurchaseFormat;
  quantity: number;
  /** The unit price the reader saw when adding; null for a visitor's line (priced fresh). */
  seenPrice: number | null;
}

/** A basket row of either kind: a format of a book, or a bundle (decision 0095). */
export type StoredEntry = StoredLine | StoredBundleLine;
const isBundleEntry = (line: StoredEntry): line is StoredBundleLine => 'bundleId' in line;

/** A line priced now. */
export interface PricedLine extends BasketLine {
  /** The line's charge after the discount code, if one applies. */
  amount: number;
  /** The price in the server's table now; null when the format is no longer priced. */
  currentPrice: number | null;
  issue: keyof typeof LINE_PROBLEMS | null;
  /**
   * What is charged, part by part: a format's line is one part (itself); a bundle line is the parts the
   * reader does not own yet, each with its share of the line's amount. Order lines, tax and shipping are
   * made from these.
   */
  charges: ChargedPart[];
}

export { LINE_PROBLEMS, lineName } from './line-problems';

/**
 * Prices every line from the server's tables and says what, if anything, keeps each from being bought.
 * Lines keep their order; a bundle line is priced for the reader (decision 0095).
 */
export async function priceBasketLines(db: DbOrTx, userId: number | null, entries: StoredEntry[], now: Date): Promise<PricedLine[]> {
  const formatLines = await priceFormatLines(db, userId, entries.filter((e): e is StoredLine => !isBundleEntry(e)), now);
  const bundleEntries = entries.filter(isBundleEntry);
  if (bundleEntries.length === 0) return formatLines;
  const bundleLines = await priceBundleLines(db, userId, bundleEntries, formatLines, (parts) => priceFormatLines(db, userId, parts, now));
  // Back in the basket's order (a line whose book or bundle is gone is left out).
  const byKey = new Map([...formatLines, ...bundleLines].map((l) => [pricedKey(l), l]));
  return entries.flatMap((e) => byKey.get(entryKey(e)) ?? []);
}

// A stored line is known by its id; a visitor's line (no id) by the format of a book, or the bundle, it names.
const entryKey = (e: StoredEntry) => (e.id !== null ? `id:${e.id}` : isBundleEntry(e) ? `bundle:${e.bundleId}` : `${e.bookId}:${e.format}`);
const pricedKey = (l: PricedLine) => (l.id !== null ? `id:${l.id}` : l.bundle ? `bundle:${l.bundle.id}` : `${l.bookId}:${l.format}`);

async function priceFormatLines(db: DbOrTx, userId: number | null, lines: StoredLine[], now: Date): Promise<PricedLine[]> {
  if (lines.length === 0) return [];
  const bookIds = [...new Set(lines.map((l) => l.bookId))];
  const [bookRows, priceRows, assetRows] = await Promise.all([
    db.select({ id: books.id, title: books.title, coverImage: books.coverImage }).from(books).where(inArray(books.id, bookIds)),
    db.select().from(bookPrices).where(inArray(bookPrices.bookId, bookIds)),
    db.select({ bookId: digitalAssets.bookId, format: digitalAssets.format }).from(digitalAssets).where(inArray(digitalAssets.bookId, bookIds)),
  ]);
  const priced: PricedLine[] = [];
  for (const line of lines) {
    // A deleted book takes its basket rows with it; a visitor's line of one is dropped the same way.
    const book = bookRows.find((b) => b.id === line.bookId);
    if (!book) continue;
    const name = lineName(book.title, line.format);
    const sale = await saleState(db, book.id, now);
    const price = priceRows.find((p) => p.bookId === book.id && p.format === line.format);
    const digital = isDigitalFormat(line.format);
    let issue: PricedLine['issue'] = null;
    let problem: string | null = null;
    if (!sale.onSale || !price) [issue, problem] = ['notOnSale', LINE_PROBLEMS.notOnSale(name)];
    else if (digital && !sale.preOrder && !assetRows.some((a) => a.bookId === book.id && a.format === line.format)) {
      [issue, problem] = ['noFile', LINE_PROBLEMS.noFile(name)];
    } else if (digital && userId !== null && (await ownsFormat(db, userId, book.id, line.format))) {
      [issue, problem] = ['owned', LINE_PROBLEMS.owned(name)];
    } else if (line.seenPrice !== null && line.seenPrice !== price.price) {
      [issue, problem] = ['priceChanged', LINE_PROBLEMS.priceChanged(name, line.seenPrice, price.price)];
    }
    const unitPrice = price?.price ?? line.seenPrice ?? 0;
    priced.push({
      id: line.id,
      bookId: book.id,
      title: book.title,
      coverImage: book.coverImage,
      format: line.format,
      formatLabel: formatLabel(line.format),
      bundle: null,
      digital,
      quantity: line.quantity,
      unitPrice,
      displayUnitPrice: formatPrice(unitPrice),
      lineTotal: unitPrice * line.quantity,
      displayLineTotal: formatPrice(unitPrice * line.quantity),
      amount: unitPrice * line.quantity,
      currentPrice: price?.price ?? null,
      issue,
      problem,
      charges: [{ bookId: book.id, title: book.title, format: line.format, quantity: line.quantity, unitPrice, description: name, bundleId: null }],
    });
  }
  return priced;
}

/**
 * Applies a code to every line it covers, per unit (as it would to each copy bought on its own, with the
 * same floor), so each line's charge stays a whole unit price times its quantity, which is what a Stripe
 * line item is. A code that covers no line is refused.
 */
export async function applyCode(db: DbOrTx, lines: PricedLine[], code: string | undefined, now: Date): Promise<DiscountRow | null> {
  if (!code) return null;
  const usable = await usableCode(db, code, now);
  if (!usable.ok) throw discountRefusedError(usable);
  const row = usable.code;
  // A bundle's price is its own: codes take nothing off it (decision 0083).
  const formatLines = lines.filter((l) => l.bundle === null);
  const covered = formatLines.filter((l) => appliesTo(row, l.format));
  if (lines.length > 0 && covered.length === 0) throw discountRefusedError(inapplicable([...new Set((formatLines.length > 0 ? formatLines : lines).map((l) => l.format))]));
  for (const line of covered) line.amount = discountedPrice(line.unitPrice, row) * line.quantity;
  return row;
}

/** Every part charged, with its charge now (a format's line after any code; a bundle's part its share). */
export function chargedParts(lines: PricedLine[]): Array<ChargedPart & { amount: number }> {
  return lines.flatMap((l) => (l.bundle ? l.charges.map((c) => ({ ...c, amount: c.unitPrice * c.quantity })) : [{ ...l.charges[0], amount: l.amount }]));
}

/** How a basket is priced beyond its lines: where it ships, and who works the tax out. */
export interface BasketView {
  shippingCountry: string | null;
  /** Where the reader lives, for the tax of a basket with nothing to ship (checkout only). */
  billingCountry?: string | null;
  /** True with Stripe: Stripe Tax computes the tax at payment, nothing is taxed from the author's table. */
  providerTaxes: boolean;
}

/**
 * The shipping and tax of priced lines (after any code). The basket's answer and its checkout both call
 * this, so the figures the reader is shown before paying are the ones charged.
 */
export function linesTotals(db: DbOrTx, lines: PricedLine[], view: BasketView, withoutShipping = false): Promise<OrderTotals> {
  return orderTotals(
    db,
    // A bundle line is taxed and shipped as the parts it charges for.
    chargedParts(lines).map((p) => ({ format: p.format, quantity: p.quantity, amount: p.amount })),
    { shippingCountry: view.shippingCountry, billingCountry: view.billingCountry ?? null, providerTaxes: view.providerTaxes, withoutShipping },
  );
}

/**
 * The basket's answer: its lines, the shipping to the chosen country and the tax. A basket holding print
 * with no destination yet, or one no zone covers, is answered without shipping and says why, rather than
 * refused: the reader is still looking at it. Checkout refuses it.
 */
export async function basketAnswer(db: DbOrTx, lines: PricedLine[], code: DiscountRow | null, view: BasketView): Promise<Basket> {
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const itemsTotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const zoneCountries = lines.some((l) => !l.digital) ? await shippingCountries(db) : [];
  const country = view.shippingCountry;
  let shipping: BasketShipping | null = null;
  // The destination counts only where Checkout sends it: a basket holding print, with zones to pick from.
  let destination: string | null = null;
  if (zoneCountries.length > 0) {
    const covered = country !== null && zoneCountries.includes(country);
    if (covered) destination = country;
    shipping = {
      countries: zoneCountries.map((c) => ({ code: c, name: countryName(c) })).sort((a, b) => a.name.localeCompare(b.name, 'en-GB')),
      country,
      description: null,
      amount: 0,
      displayAmount: formatPrice(0),
      free: false,
      problem: country !== null && !covered ? SHIPPING_MESSAGES.cannotShip(countryName(country)) : null,
    };
  }
  const withoutShipping = shipping !== null && destination === null;
  const totals = await linesTotals(db, lines, { ...view, shippingCountry: destination }, withoutShipping);
  if (shipping && destination) {
    const amount = totals.shipping?.amount ?? 0;
    shipping = { ...shipping, description: shippingLineName(destination), amount, displayAmount: formatPrice(amount), free: totals.freeShipping };
  }
  return {
    lines: lines.map(({ amount: _amount, currentPrice: _current, issue: _issue, charges: _charges, ...line }) => line),
    count: lines.reduce((sum, l) => sum + l.quantity, 0),
    currency: CURRENCY,
    subtotal,
    displaySubtotal: formatPrice(subtotal),
    discount: subtotal - itemsTotal,
    displayDiscount: formatPrice(subtotal - itemsTotal),
    discountCode: code?.code ?? null,
    shipping,
    net: totals.net,
    displayNet: formatPrice(totals.net),
    tax: totals.tax,
    displayTax: formatPrice(totals.tax),
    pricesIncludeTax: totals.pricesIncludeTax,
    taxAtPayment: totals.taxAtPayment,
    total: totals.total,
    displayTotal: formatPrice(totals.total),
  };
}

export const shippingLineName = (country: string) => `Shipping to ${countryName(country)}`;

export async function storedLines(db: DbOrTx, userId: number): Promise<StoredEntry[]> {
  const rows = await db.select().from(basketItems).where(eq(basketItems.userId, userId)).orderBy(asc(basketItems.createdAt), asc(basketItems.id));
  return rows.map((r) =>
    r.bundleId !== null
      ? { id: r.id, bundleId: r.bundleId, seenPrice: r.unitPrice }
      : { id: r.id, bookId: r.bookId!, format: r.format as PurchaseFormat, quantity: r.quantity, seenPrice: r.unitPrice },
  );
}

/** GET /api/basket. */
export async function getBasket(db: DbOrTx, userId: number, code: string | undefined, now: Date, view: BasketView): Promise<Basket> {
  const lines = await priceBasketLines(db, userId, await storedLines(db, userId), now);
  return basketAnswer(db, lines, await applyCode(db, lines, code, now), view);
}

/** POST /api/basket/preview: a visitor's basket, priced (no one owns anything yet). */
export async function previewBasket(db: DbOrTx, items: BasketItemRequest[], now: Date, view: BasketView): Promise<Basket> {
  const merged = new Map<string, StoredEntry>();
  for (const item of items) {
    if (isBundleRequest(item)) merged.set(`bundle:${item.bundleId}`, { id: null, bundleId: item.bundleId, seenPrice: null });
    else merged.set(`${item.bookId}:${item.format}`, { id: null, bookId: item.bookId, format: item.format, quantity: item.quantity ?? 1, seenPrice: null });
  }
  return basketAnswer(db, await priceBasketLines(db, null, [...merged.values()], now), null, view);
}

const refusedLine = (message: string) => new AppError('NOT_AVAILABLE', 409, message);
const quantityRefused = () => new AppError('VALIDATION_ERROR', 400, BASKET_MESSAGES.quantity, { quantity: BASKET_MESSAGES.quantity });

/**
 * POST /api/basket/items: adds a line, or adds to the quantity of the same format's line. Refused (and
 * nothing changes) when the format cannot be bought now, is owned, or the quantity would pass the limit.
 */
export async function addItem(db: DbOrTx, userId: number, input: BasketItemRequest, now: Date, view: BasketView): Promise<Basket> {
  if (isBundleRequest(input)) {
    await addBundleItem(db, userId, input.bundleId, now, (entries) => priceBasketLines(db, userId, entries, now), await storedLines(db, userId));
    return getBasket(db, userId, undefined, now, view);
  }
  return addFormatItem(db, userId, input, now, view);
}

async function addFormatItem(db: DbOrTx, userId: number, input: FormatItemRequest, now: Date, view: BasketView): Promise<Basket> {
  const quantity = input.quantity ?? 1;
  const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, input.bookId));
  if (!book) throw notFound('Book not found');
  const [line] = await priceBasketLines(db, userId, [{ id: null, bookId: input.bookId, format: input.format, quantity, seenPrice: null }], now);
  if (line.issue === 'owned') throw alreadyOwned();
  if (line.problem) throw refusedLine(line.problem);
  if (line.digital) {
    // A digital format is one copy: adding it again leaves the line as it is.
    await db.insert(basketItems).values({ userId, bookId: input.bookId, format: input.format, quantity: 1, unitPrice: line.unitPrice, createdAt: now }).onConflictDoNothing();
  } else {
    // One statement, so two quick clicks add two copies and never pass the limit.
    const rows = await db
      .insert(basketItems)
      .values({ userId, bookId: input.bookId, format: input.format, quantity, unitPrice: line.unitPrice, createdAt: now })
      .onConflictDoUpdate({
        target: [basketItems.userId, basketItems.bookId, basketItems.format],
        set: { quantity: sql`${basketItems.quantity} + ${quantity}`, unitPrice: line.unitPrice },
        setWhere: sql`${basketItems.quantity} + ${quantity} <= 10`,
      })
      .returning({ id: basketItems.id });
    if (rows.length === 0) throw quantityRefused();
  }
  return getBasket(db, userId, undefined, now, view);
}

async function ownItem(db: DbOrTx, userId: number, id: number) {
  const [row] = await db.select().from(basketItems).where(and(eq(basketItems.id, id), eq(basketItems.userId, userId)));
  // Another reader's line is answered as if it did not exist.
  if (!row) throw notFound(BASKET_MESSAGES.itemNotFound);
  return row;
}

/** PATCH /api/basket/items/{id}: a print line's quantity; a digital line stays at one. */
export async function setQuantity(db: DbOrTx, userId: number, id: number, quantity: number, now: Date, view: BasketView): Promise<Basket> {
  const row = await ownItem(db, userId, id);
  if (row.bundleId !== null && quantity !== 1) {
    throw new AppError('VALIDATION_ERROR', 400, BASKET_MESSAGES.bundleQuantity, { quantity: BASKET_MESSAGES.bundleQuantity });
  }
  if (row.bundleId === null && isDigitalFormat(row.format!) && quantity !== 1) {
    throw new AppError('VALIDATION_ERROR', 400, BASKET_MESSAGES.digitalQuantity, { quantity: BASKET_MESSAGES.digitalQuantity });
  }
  await db.update(basketItems).set({ quantity }).where(and(eq(basketItems.id, id), eq(basketItems.userId, userId)));
  return getBasket(db, userId, undefined, now, view);
}

/** DELETE /api/basket/items/{id}. */
export async function removeItem(db: DbOrTx, userId: number, id: number, now: Date, view: BasketView): Promise<Basket> {
  await ownItem(db, userId, id);
  await db.delete(basketItems).where(and(eq(basketItems.id, id), eq(basketItems.userId, userId)));
  return getBasket(db, userId, undefined, now, view);
}

/** The reader has now seen these prices (a refusal named them): the next checkout charges them. */
export async function acceptPrices(db: DbOrTx, userId: number, lines: PricedLine[]): Promise<void> {
  for (const line of lines) {
    if (line.id === null || line.currentPrice === null) continue;
    await db.update(basketItems).set({ unitPrice: line.currentPrice }).where(and(eq(basketItems.id, line.id), eq(basketItems.userId, userId)));
  }
}
