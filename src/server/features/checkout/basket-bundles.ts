/**
 * A bundle as one line of the basket (decision 0095): priced for the reader (the bundle's price less what
 * they paid for the parts they own, decision 0083) and charged as the parts they do not own yet, each its
 * share of that price, so tax, shipping, order lines and fulfilment are those of any basket line.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { type PurchaseFormat, formatPrice, isDigitalFormat } from '@shared/constants';
import { BUNDLE_MESSAGES } from '@shared/schemas/bundles';
import type { DbOrTx } from '../../db/client';
import { basketItems, books, bundles } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import { bundleForReader } from '../bundles/service';
import type { PricedLine, StoredEntry, StoredLine } from './basket';
import { LINE_PROBLEMS, type LineIssue, lineName } from './line-problems';
import { alreadyOwned } from './repeat-purchases';

/** A basket row naming a bundle; its quantity is always one. */
export interface StoredBundleLine {
  id: number | null;
  bundleId: number;
  /** The reader's price for it when they added it (or last saw it); null for a visitor's line. */
  seenPrice: number | null;
}

/** One thing charged: a format of a book, at a unit price, as the order line that will be made of it. */
export interface ChargedPart {
  bookId: number;
  title: string;
  format: PurchaseFormat;
  quantity: number;
  unitPrice: number;
  description: string;
  /** The bundle it is a part of; null for a format bought on its own. */
  bundleId: number | null;
}

export const BUNDLE_OWNED = 'Every format of this bundle is already in your library';

/**
 * Splits a price over parts by weight (their own list prices), in whole pence, the pence rounding leaves
 * going to the first parts; every part gets at least 1p, so each order line charges something.
 */
export function splitByWeight(amount: number, weights: readonly number[]): number[] {
  // A bundle costs at least the 30p minimum and holds at most 12 parts, so every part can have 1p.
  if (amount < weights.length) throw new Error('Too little to give each part a penny');
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.max(1, Math.floor((amount * w) / total)));
  let rest = amount - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; rest !== 0; i = (i + 1) % shares.length) {
    const step = rest > 0 ? 1 : shares[i] > 1 ? -1 : 0;
    shares[i] += step;
    rest -= step;
  }
  return shares;
}

const digitalKey = (bookId: number, format: string) => `${bookId}:${format}`;

/**
 * Prices the bundle lines of a basket. `formatLines` are its other lines, priced: a digital format one of
 * them buys must not be charged again inside a bundle. `priceParts` prices formats as basket lines (on
 * sale, file uploaded), the same rules a part must pass.
 */
export async function priceBundleLines(
  db: DbOrTx,
  userId: number | null,
  entries: StoredBundleLine[],
  formatLines: PricedLine[],
  priceParts: (parts: StoredLine[]) => Promise<PricedLine[]>,
): Promise<PricedLine[]> {
  const taken = new Set(formatLines.filter((l) => l.digital).map((l) => digitalKey(l.bookId, l.format)));
  const priced: PricedLine[] = [];
  for (const entry of entries) {
    const bundle = await bundleForReader(db, entry.bundleId, userId);
    // A bundle whose books were all deleted holds nothing: the line goes, as a deleted book's does.
    if (!bundle || bundle.items.length === 0) continue;
    const wanted = bundle.items.filter((p) => !p.owned);
    const parts = await priceParts(wanted.map((p) => ({ id: null, bookId: p.bookId, format: p.format, quantity: 1, seenPrice: null })));
    const name = bundle.name;
    const partProblem = parts.find((l) => l.problem !== null);
    const twice = parts.find((l) => l.digital && taken.has(digitalKey(l.bookId, l.format)));
    let issue: LineIssue | null = null;
    let problem: string | null = null;
    if (!bundle.active || parts.length < wanted.length) [issue, problem] = ['notOnSale', LINE_PROBLEMS.notOnSale(name)];
    else if (wanted.length === 0) [issue, problem] = ['owned', LINE_PROBLEMS.owned(name)];
    else if (partProblem) [issue, problem] = [partProblem.issue, partProblem.problem];
    else if (twice) [issue, problem] = ['inBasketTwice', LINE_PROBLEMS.inBasketTwice(name, lineName(twice.title, twice.format))];
    else if (entry.seenPrice !== null && entry.seenPrice !== bundle.yourPrice) {
      [issue, problem] = ['priceChanged', LINE_PROBLEMS.priceChanged(name, entry.seenPrice, bundle.yourPrice)];
    }
    for (const l of parts) if (l.digital) taken.add(digitalKey(l.bookId, l.format));
    // The bundle's price is the price, not a discount on its parts: each part is charged its share.
    const shares = parts.length > 0 ? splitByWeight(bundle.yourPrice, parts.map((l) => l.currentPrice ?? 1)) : [];
    const [first] = bundle.items;
    const [cover] = await db.select({ coverImage: books.coverImage }).from(books).where(eq(books.id, first.bookId));
    priced.push({
      id: entry.id,
      bookId: first.bookId,
      title: name,
      coverImage: cover?.coverImage ?? '',
      format: first.format,
      formatLabel: 'Bundle',
      bundle: {
        id: bundle.id,
        parts: bundle.items.map((p) => ({ bookId: p.bookId, title: p.title, format: p.format, formatLabel: p.formatLabel, owned: p.owned })),
      },
      digital: bundle.items.every((p) => isDigitalFormat(p.format)),
      quantity: 1,
      unitPrice: bundle.yourPrice,
      displayUnitPrice: formatPrice(bundle.yourPrice),
      lineTotal: bundle.yourPrice,
      displayLineTotal: formatPrice(bundle.yourPrice),
      amount: bundle.yourPrice,
      currentPrice: bundle.yourPrice,
      issue,
      problem,
      charges: parts.map((l, i) => ({
        bookId: l.bookId,
        title: l.title,
        format: l.format,
        quantity: 1,
        unitPrice: shares[i],
        description: `${name}: ${lineName(l.title, l.format)}`,
        bundleId: bundle.id,
      })),
    });
  }
  return priced;
}

/**
 * POST /api/basket/items `{ bundleId }`: one line of one, at the reader's price. `priceWithBasket` prices
 * the basket with this bundle added, so a part another line already buys is refused. Refused (and
 * nothing changes) when the bundle is unknown or switched off (404), every part is owned (409), or a part
 * cannot be bought now.
 */
export async function addBundleItem(
  db: DbOrTx,
  userId: number,
  bundleId: number,
  now: Date,
  priceWithBasket: (entries: StoredEntry[]) => Promise<PricedLine[]>,
  basket: StoredEntry[],
): Promise<void> {
  const [row] = await db.select({ id: bundles.id }).from(bundles).where(and(eq(bundles.id, bundleId), eq(bundles.active, true)));
  if (!row) throw notFound(BUNDLE_MESSAGES.notFound);
  // Already in the basket: a bundle is one line of one, so adding it again changes nothing.
  if (basket.some((e) => 'bundleId' in e && e.bundleId === bundleId)) return;
  const priced = await priceWithBasket([...basket, { id: null, bundleId, seenPrice: null }]);
  const line = priced.find((l) => l.id === null && l.bundle?.id === bundleId);
  if (!line) throw notFound(BUNDLE_MESSAGES.notFound);
  if (line.issue === 'owned') throw new AppError(alreadyOwned().code, 409, BUNDLE_OWNED);
  if (line.problem) throw new AppError('NOT_AVAILABLE', 409, line.problem);
  await db.insert(basketItems).values({ userId, bundleId, quantity: 1, unitPrice: line.unitPrice, createdAt: now }).onConflictDoNothing();
}

/** Bundle basket rows a paid order bought: they leave the basket with the formats. */
export async function removeBoughtBundles(tx: DbOrTx, userId: number, bundleIds: number[]): Promise<void> {
  if (bundleIds.length === 0) return;
  await tx.delete(basketItems).where(and(eq(basketItems.userId, userId), inArray(basketItems.bundleId, bundleIds)));
}
