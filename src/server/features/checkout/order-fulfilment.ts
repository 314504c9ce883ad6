/**
 * Fulfilment of a basket order, inside the one fulfilment transaction (fulfilment.ts has already claimed
 * the session and counted the code): each line becomes its own purchase row, so a digital line lands in
 * the library and a print line in the shipping queue exactly as a direct purchase does (decision 0073).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { DEFAULT_MAX_DOWNLOADS, type PurchaseFormat, formatPrice, isDigitalFormat } from '@shared/constants';
import type { OrderLine } from '@shared/schemas/checkout';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { basketItems, checkoutSessions, orderLines, orders, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import { addIncludedEditions } from '../library/service';
import { addIncludedEbook } from './included-ebook';
import { orderReceiptMail } from './order-receipt';
import { removeBoughtBundles } from './basket-bundles';

type OrderRow = typeof orders.$inferSelect;
type SessionRow = typeof checkoutSessions.$inferSelect;

export interface Completion {
  providerSessionId: string;
  customerName: string | null;
  customerEmail: string | null;
  shippingAddress: unknown;
  paymentId?: string | null;
}

/** The order a checkout session pays for, if it is a basket checkout. */
export async function orderOfSession(tx: DbOrTx, sessionId: string): Promise<OrderRow | null> {
  const [row] = await tx.select().from(orders).where(eq(orders.checkoutSessionId, sessionId)).limit(1);
  return row ?? null;
}

export const lineReference = (orderReference: string, position: number) => `${orderReference}-${position}`;

export async function fulfilOrder(
  deps: Pick<AppDeps, 'mailer' | 'config'>,
  tx: DbOrTx,
  session: SessionRow,
  order: OrderRow,
  c: Completion,
  discountCode: string | null,
  now: Date,
): Promise<{ purchaseIds: number[] }> {
  const allLines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.position));
  // The shipping line is charged, not fulfilled: only the book lines become purchases.
  const lines = allLines.filter((l) => l.kind === 'item');
  const shippingLine = allLines.find((l) => l.kind === 'shipping') ?? null;
  const [buyer] = await tx
    .select({ email: users.email, username: users.username, displayName: users.displayName })
    .from(users)
    .where(eq(users.id, session.userId));
  const customerName = c.customerName || buyer.displayName || buyer.username;
  const purchaseIds: number[] = [];
  const receiptLines = [];
  for (const line of lines) {
    const bookId = line.bookId!;
    const format = line.format!;
    const digital = isDigitalFormat(format);
    const reference = lineReference(order.reference, line.position);
    const [purchase] = await tx
      .insert(purchases)
      .values({
        userId: session.userId,
        bookId,
        format,
        price: line.amount,
        currency: order.currency,
        purchaseDate: now,
        status: 'completed',
        orderReference: reference,
        maxDownloads: digital ? DEFAULT_MAX_DOWNLOADS : 0,
        quantity: line.quantity,
      })
      .returning({ id: purchases.id });
    const paid = { id: purchase.id, userId: session.userId, bookId, format, currency: order.currency, orderReference: reference };
    const included = await addIncludedEbook(tx, paid, now);
    if ((await addIncludedEditions(tx, { ...paid, paidByPurchaseId: null }, now)) !== null) included.push('pdf');
    await tx.insert(purchaseCustomerInfo).values({
      purchaseId: purchase.id,
      customerName,
      customerEmail: c.customerEmail || buyer.email,
      // The provider's session is one per payment (a unique key): it is kept on the order's first line.
      stripeSessionId: purchaseIds.length === 0 ? c.providerSessionId : null,
      shippingAddress: digital ? null : (c.shippingAddress ?? null),
    });
    await tx.update(orderLines).set({ purchaseId: purchase.id }).where(eq(orderLines.id, line.id));
    purchaseIds.push(purchase.id);
    // The receipt's line shows its price as listed; tax added on top is shown once, in the totals.
    const shown = order.pricesIncludeTax ? line.amount : line.amount - line.tax;
    receiptLines.push({ description: line.description, format, quantity: line.quantity, unitPrice: line.unitPrice, amount: shown, included });
  }
  await tx.update(orders).set({ paidAt: now }).where(eq(orders.id, order.id));
  // The session names no purchase of its own: its order's lines do (so no line reads the whole order's
  // list price as its own).
  await tx.update(checkoutSessions).set({ providerPaymentId: c.paymentId ?? null }).where(eq(checkoutSessions.id, session.id));
  // What was bought leaves the basket; anything added since (another format) stays.
  const bought = lines.map((l) => sql`(${l.bookId}, ${l.format})`);
  await tx
    .delete(basketItems)
    .where(and(eq(basketItems.userId, session.userId), sql`(${basketItems.bookId}, ${basketItems.format}) in (${sql.join(bought, sql`, `)})`));
  await removeBoughtBundles(tx, session.userId, [...new Set(lines.flatMap((l) => (l.bundleId === null ? [] : [l.bundleId])))]);
  await deps.mailer.enqueue(
    orderReceiptMail({
      to: buyer.email,
      customerName,
      orderReference: order.reference,
      lines: receiptLines,
      subtotal: order.subtotal,
      total: order.total,
      shipping: shippingLine
        ? { description: shippingLine.description, amount: order.pricesIncludeTax ? shippingLine.amount : shippingLine.amount - shippingLine.tax }
        : null,
      tax: order.tax,
      pricesIncludeTax: order.pricesIncludeTax,
      discountCode,
      purchaseDate: now,
      publicUrl: deps.config.publicUrl,
    }),
    tx,
  );
  return { purchaseIds };
}

/** The book lines of a checkout's order, with what the refusals name them. */
export async function orderItemLines(db: DbOrTx, sessionId: string) {
  const rows = await db
    .select({ bookId: orderLines.bookId, format: orderLines.format, description: orderLines.description })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orders.checkoutSessionId, sessionId), eq(orderLines.kind, 'item')))
    .orderBy(asc(orderLines.position));
  return rows.map((r) => ({ bookId: r.bookId!, format: r.format!, description: r.description }));
}

/** An order's book lines as the payment page shows them (its shipping line is shown with the totals). */
export async function orderLinesOf(db: DbOrTx, orderId: number): Promise<OrderLine[]> {
  const rows = await db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.kind, 'item')))
    .orderBy(asc(orderLines.position));
  return rows.map((l) => ({
    id: l.id,
    description: l.description,
    format: l.format as PurchaseFormat,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    displayUnitPrice: formatPrice(l.unitPrice),
    amount: l.amount,
    displayAmount: formatPrice(l.amount),
    tax: l.tax,
    displayTax: formatPrice(l.tax),
  }));
}

/** An order's net, tax and shipping, as the payment page and the reader's orders show them. */
export async function orderTaxAndShipping(db: DbOrTx, order: OrderRow) {
  const [shippingLine] = await db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, 'shipping')))
    .limit(1);
  return {
    net: order.total - order.tax,
    displayNet: formatPrice(order.total - order.tax),
    tax: order.tax,
    displayTax: formatPrice(order.tax),
    pricesIncludeTax: order.pricesIncludeTax,
    shipping: order.shipping,
    displayShipping: formatPrice(order.shipping),
    shippingDescription: shippingLine?.description ?? null,
  };
}

/** The purchase rows an order's lines became, for a refund of the whole order. */
export async function linePurchaseIds(tx: DbOrTx, orderId: number): Promise<number[]> {
  const rows = await tx.select({ purchaseId: orderLines.purchaseId }).from(orderLines).where(eq(orderLines.orderId, orderId));
  return rows.map((r) => r.purchaseId).filter((id): id is number => id !== null);
}

/** The order line a purchase row is, with its order's session, when it came from a basket. */
export async function lineOfPurchase(tx: DbOrTx, purchaseId: number) {
  const [row] = await tx
    .select({ amount: orderLines.amount, orderId: orderLines.orderId, sessionId: orders.checkoutSessionId, lines: sql<number>`(select count(*) from ${orderLines} ol where ol.order_id = ${orderLines.orderId})`.mapWith(Number) })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(eq(orderLines.purchaseId, purchaseId))
    .limit(1);
  return row ?? null;
}
