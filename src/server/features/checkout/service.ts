import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { PHYSICAL_FORMATS, type PurchaseFormat, formatPrice, isDigitalFormat } from '@shared/constants';
import { type CheckoutRequest, type CheckoutResponse, type PaymentSession, type StoreFormatsResponse, addressLines } from '@shared/schemas/checkout';
import { formatLabel } from '@shared/constants';
import { checkoutSessions, books, digitalAssets, discountCodes, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../platform/http/errors';
import { getBook, getFeaturedBook, getPrice, listPrices } from '../books/service';
import type { Book } from '@shared/schemas/books';
import { getSetting } from '../../platform/operations/settings';
import { discountRefusedError, priceWithDiscount } from '../discounts/service';
import { includesEbook } from './included-ebook';
import { hasPdfEdition } from '../library/service';
import { prepareGift } from '../gifts/service';
import { saleState } from '../pre-orders/service';
import { orderLinesOf, orderOfSession, orderTaxAndShipping } from './order-fulfilment';
import { answerRepeatedIntent, assertNotRepeat, checkoutInProgress, findIntentSession } from './repeat-purchases';

// What other features may use of this one (their only way in).
export { RECONCILE_JOB } from './reconcile';
export { refundOrder } from './refunds';
export { shipOrder } from './shipment';
export { forgedWebhookSummary, recentWebhookFailures } from './webhook-failures';
export { listMyFormats } from './repeat-purchases';

/** How long a started checkout stays payable (Stripe accepts 30 minutes to 24 hours). */
export const CHECKOUT_TTL_MS = 60 * 60 * 1000;

/**
 * The purchase section: the display text the author keeps in 'site.formats', priced by the server. The
 * home page's is the featured book's; a catalogue page passes its own book.
 */
export async function listStoreFormats(db: DbOrTx, forBook?: Book): Promise<StoreFormatsResponse> {
  const book = forBook ?? (await getFeaturedBook(db));
  if (!book) return { book: null, formats: [] };
  const [content, prices, pdf] = await Promise.all([
    getSetting(db, 'site.formats'),
    listPrices(db, book.id),
    hasPdfEdition(db, book.id),
  ]);
  const formats: StoreFormatsResponse['formats'] = [];
  for (const item of content ?? []) {
    const price = prices.find((p) => p.format === item.id);
    // A format without a server price cannot be bought, so it is not offered.
    if (!price) continue;
    formats.push({
      id: item.id as PurchaseFormat,
      title: item.title,
      price: price.price,
      currency: price.currency,
      displayPrice: formatPrice(price.price),
      features: item.features,
      buttonText: item.buttonText,
      includesEbook: includesEbook(book, item.id),
      ...(item.id === 'ebook' && pdf ? { includesPdf: true } : {}),
    });
  }
  return { book: { id: book.id, title: book.title }, formats };
}

const notAvailable = (message: string) => new AppError('NOT_AVAILABLE', 409, message);

/**
 * Starts a payment: the price comes from the server's table, never from the client. A repeated request
 * for the same purchase intent answers the checkout it already started (decision 0066).
 */
export async function createCheckout(
  deps: AppDeps,
  userId: number,
  input: CheckoutRequest,
): Promise<CheckoutResponse> {
  const { db } = deps.database;
  const { clock, random, payments, config } = deps;
  const key = input.idempotencyKey ?? null;
  if (key) {
    const earlier = await findIntentSession(db, userId, key);
    const answer = earlier && (await answerRepeatedIntent(db, earlier, input, clock.now()));
    if (answer) return answer;
  }
  const book = await getBook(db, input.bookId);
  if (!book) throw notFound('Book not found');
  // Only the featured book is on sale (docs/PRODUCT.md, Book form), and a book the admin put on pre-order; others may have
  // prices ready for the day they are.
  const sale = await saleState(db, book.id, clock.now());
  if (!sale.onSale) throw notAvailable('The book is currently not available for purchase');
  const gift = prepareGift(input, clock.now());
  await assertNotRepeat(db, {
    userId,
    bookId: book.id,
    format: input.format,
    gift: gift !== null,
    confirmRepeat: input.confirmRepeat === true,
    now: clock.now(),
  });
  const price = await getPrice(db, book.id, input.format);
  if (!price) throw notAvailable('The book is currently not available for purchase in this format');
  // A pre-order's files may arrive any time before its release.
  if (isDigitalFormat(input.format) && !sale.preOrder) {
    const [asset] = await db
      .select({ id: digitalAssets.id })
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, book.id), eq(digitalAssets.format, input.format)))
      .limit(1);
    if (!asset) throw notAvailable('This format is not available for download yet');
  }
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('UNAUTHENTICATED', 401, 'Authentication required');

  const now = clock.now();
  const pricing = await priceWithDiscount(db, { format: input.format, price: price.price, code: input.discountCode, now });
  if (!pricing.ok) throw discountRefusedError(pricing);
  const { priced } = pricing;
  const id = `cs_${random.token(18)}`;
  const expiresAt = new Date(now.getTime() + CHECKOUT_TTL_MS);
  const inserted = await db
    .insert(checkoutSessions)
    .values({
      id,
      userId,
      bookId: book.id,
      format: input.format,
      amount: priced.amount,
      currency: price.currency,
      provider: payments.name,
      status: 'open',
      createdAt: now,
      expiresAt,
      discountCodeId: priced.discountCodeId,
      originalAmount: priced.originalAmount,
      gift,
      idempotencyKey: key,
    })
    .onConflictDoNothing({ target: [checkoutSessions.userId, checkoutSessions.idempotencyKey] })
    .returning({ id: checkoutSessions.id });
  if (inserted.length === 0) {
    // The same intent arrived twice at once: the other request owns the checkout.
    const other = await findIntentSession(db, userId, key!);
    const answer = other && (await answerRepeatedIntent(db, other, input, now));
    if (answer) return answer;
    throw checkoutInProgress();
  }

  const base = config.publicUrl.origin;
  const physical = (PHYSICAL_FORMATS as readonly string[]).includes(input.format);
  try {
    const created = await payments.createPayment({
      checkoutId: id,
      userId,
      bookId: book.id,
      format: input.format,
      amount: priced.amount,
      currency: price.currency,
      productName: `${book.title} (${formatLabel(input.format)})`,
      customerEmail: user.email,
      collectShipping: physical,
      // Physical orders come back to the confirmation page; digital ones to the library. Neither page
      // grants anything: only the provider's signed event (or the local page's Pay) fulfils.
      successUrl: physical ? `${base}/pay/${id}` : `${base}/profile#library`,
      cancelUrl: `${base}/#purchase`,
      expiresAt,
    });
    await db
      .update(checkoutSessions)
      .set({ providerSessionId: created.providerSessionId, paymentUrl: created.url })
      .where(eq(checkoutSessions.id, id));
    return { url: created.url };
  } catch (error) {
    await db.update(checkoutSessions).set({ status: 'cancelled' }).where(eq(checkoutSessions.id, id));
    deps.log.error({ err: error, checkoutId: id }, 'payment provider refused to create a session');
    throw new AppError('PAYMENT_UNAVAILABLE', 502, 'The payment service is unavailable. Please try again shortly.');
  }
}

/** A checkout session as its owner's payment page shows it; anyone else gets 404. */
export async function getPaymentSession(db: DbOrTx, userId: number, sessionId: string, now: Date): Promise<PaymentSession> {
  const [row] = await db
    .select({
      id: checkoutSessions.id,
      status: checkoutSessions.status,
      provider: checkoutSessions.provider,
      format: checkoutSessions.format,
      amount: checkoutSessions.amount,
      currency: checkoutSessions.currency,
      expiresAt: checkoutSessions.expiresAt,
      bookId: books.id,
      title: books.title,
      coverImage: books.coverImage,
      email: users.email,
      orderReference: purchases.orderReference,
      originalAmount: checkoutSessions.originalAmount,
      discountCode: discountCodes.code,
      gift: checkoutSessions.gift,
      shippingAddress: purchaseCustomerInfo.shippingAddress,
      releaseAt: books.releaseAt,
    })
    .from(checkoutSessions)
    .innerJoin(books, eq(books.id, checkoutSessions.bookId))
    .innerJoin(users, eq(users.id, checkoutSessions.userId))
    .leftJoin(purchases, eq(purchases.id, checkoutSessions.purchaseId))
    .leftJoin(discountCodes, eq(discountCodes.id, checkoutSessions.discountCodeId))
    .leftJoin(purchaseCustomerInfo, eq(purchaseCustomerInfo.purchaseId, checkoutSessions.purchaseId))
    .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Checkout session not found');
  const order = await orderOfSession(db, row.id);
  const lines = order ? await orderLinesOf(db, order.id) : null;
  return {
    id: row.id,
    status: row.status as PaymentSession['status'],
    provider: row.provider as PaymentSession['provider'],
    format: row.format as PurchaseFormat,
    amount: row.amount,
    currency: row.currency,
    displayPrice: formatPrice(row.amount),
    // A basket with one print line is shipped, so the page asks for an address.
    digital: lines ? lines.every((l) => isDigitalFormat(l.format)) : isDigitalFormat(row.format),
    expiresAt: row.expiresAt.toISOString(),
    book: { id: row.bookId, title: row.title, coverImage: row.coverImage },
    customerEmail: row.email,
    orderReference: order ? (order.paidAt ? order.reference : null) : (row.orderReference ?? null),
    originalAmount: row.originalAmount,
    displayOriginalPrice: row.originalAmount == null ? null : formatPrice(row.originalAmount),
    discountCode: row.discountCode ?? null,
    gift: row.gift ? { recipientName: row.gift.recipientName, recipientEmail: row.gift.recipientEmail, sendAt: row.gift.sendAt } : null,
    shippingAddress: addressLines(row.shippingAddress),
    availableAt: row.releaseAt && row.releaseAt > now ? row.releaseAt.toISOString() : null,
    ...(lines ? { lines } : {}),
    ...(order ? await orderTaxAndShipping(db, order) : {}),
  };
}

/** Where the browser goes after a checkout completes: a basket order's confirmation lists its lines. */
export function completionRedirect(session: { id: string; format: string; lines?: unknown[] }): string {
  return isDigitalFormat(session.format) && !session.lines ? '/profile#library' : `/pay/${session.id}`;
}
