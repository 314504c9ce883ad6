import { and, asc, eq, inArray, ne, or } from 'drizzle-orm';
import { formatPrice } from '@shared/constants';
import type { RefundOrderInput } from '@shared/schemas/admin';
import type { AppDeps } from '../../deps';
import { partialRefundMail, refundMail } from './templates';
import type { DbOrTx } from '../../db/client';
import { books, checkoutSessions, orderLines, purchaseCustomerInfo, purchases, refunds, users } from '../../db/schema';
import { AppError, conflict, notFound } from '../../platform/http/errors';
import type { PaymentEvent } from '../../platform/payments';
import { audit, type ActorId } from '../../platform/operations/audit';
import { isFirstDelivery } from './payment-events';
import { lineOfPurchase, linePurchaseIds, orderOfSession } from './order-fulfilment';
import { shareOut } from './refund-shares';

/** Only rows somebody paid for are refunded; rows they paid for (included ebook, claimed gift) follow. */
const REFUNDABLE_KINDS = ['paid', 'gift'];
export const ALREADY_REFUNDED = 'This order has already been refunded';

/**
 * The whole refund, one statement: the paid row and every row it paid for (paid_by_purchase_id) become
 * 'refunded' with when and by whom. Access goes at once, because every ownership check reads status
 * 'completed'/'shipped'; revenue too, because the dashboard counts only those statuses.
 */
async function markRefunded(tx: DbOrTx, purchaseId: number, by: number | null, now: Date): Promise<number[]> {
  const rows = await tx
    .update(purchases)
    .set({ status: 'refunded', refundedAt: now, refundedBy: by })
    .where(
      and(
        or(eq(purchases.id, purchaseId), eq(purchases.paidByPurchaseId, purchaseId)),
        ne(purchases.status, 'refunded'),
      ),
    )
    .returning({ id: purchases.id });
  return rows.map((r) => r.id);
}

async function mailBuyer(deps: AppDeps, tx: DbOrTx, purchaseId: number, amount: number, whole: boolean): Promise<void> {
  const [row] = await tx
    .select({
      email: users.email,
      name: users.displayName,
      username: users.username,
      title: books.title,
      format: purchases.format,
      orderReference: purchases.orderReference,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .innerJoin(books, eq(books.id, purchases.bookId))
    .where(eq(purchases.id, purchaseId));
  const input = { to: row.email, name: row.name || row.username, title: row.title, format: row.format, price: amount, orderReference: row.orderReference };
  await deps.mailer.enqueue(whole ? refundMail(input) : partialRefundMail(input), tx);
}

interface Held {
  id: number;
  price: number;
  refundedAmount: number;
}

/**
 * Records `amount` given back of a locked paid row: a refunds row, the row's refunded amount (revenue
 * drops by it) and, when nothing of the row is left, the row and what it paid for leave the library.
 * The buyer is mailed either way.
 */
async function recordRefund(
  deps: AppDeps,
  tx: DbOrTx,
  row: Held,
  amount: number,
  by: { actorId: number | null; source: 'admin' | 'provider' },
  now: Date,
): Promise<{ whole: boolean; withdrawn: number[] }> {
  const whole = row.refundedAmount + amount >= row.price;
  await tx
    .update(purchases)
    .set({ refundedAmount: row.refundedAmount + amount })
    .where(eq(purchases.id, row.id));
  const withdrawn = whole ? await markRefunded(tx, row.id, by.actorId, now) : [];
  await tx.insert(refunds).values({ purchaseId: row.id, amount, source: by.source, whole, createdBy: by.actorId, createdAt: now });
  await mailBuyer(deps, tx, row.id, amount, whole);
  return { whole, withdrawn };
}

/** Locks a paid row for a refund and says why it cannot be refunded, if it cannot. */
async function holdRefundable(tx: DbOrTx, purchaseId: number, alreadyRefunded: string) {
  const [row] = await tx
    .select({
      id: purchases.id,
      kind: purchases.kind,
      status: purchases.status,
      orderReference: purchases.orderReference,
      price: purchases.price,
      refundedAmount: purchases.refundedAmount,
    })
    .from(purchases)
    .where(eq(purchases.id, purchaseId))
    .for('update');
  if (!row) throw notFound('Order not found');
  if (!REFUNDABLE_KINDS.includes(row.kind)) throw conflict('This item came with another order: refund that order instead');
  if (row.status === 'refunded') throw conflict(alreadyRefunded);
  if (row.status === 'pending') throw conflict('A pending order cannot be refunded');
  return row;
}

/**
 * POST /api/admin/orders/{id}/refund: the row {id} whole (as always), another line of its basket order
 * (`lineId`), or only an `amount` of either (decision 0082). The row is locked while the provider refunds,
 * so a concurrent second refund (or the provider's charge.refunded event) waits and then finds what this
 * one recorded: a Stripe refund is asked for once per intent, with an idempotency key, and a failed one
 * changes nothing here.
 */
export async function refundOrder(deps: AppDeps, actorId: ActorId, purchaseId: number, input: RefundOrderInput = {}): Promise<void> {
  const { db } = deps.database;
  const { clock, payments } = deps;
  await db.transaction(async (tx) => {
    let targetId = purchaseId;
    if (input.lineId !== undefined) {
      // The line must belong to the order the row {id} belongs to; the row itself may be refunded already.
      const [exists] = await tx.select({ id: purchases.id }).from(purchases).where(eq(purchases.id, purchaseId));
      if (!exists) throw notFound('Order not found');
      const own = await lineOfPurchase(tx, purchaseId);
      const [line] = own
        ? await tx
            .select({ purchaseId: orderLines.purchaseId })
            .from(orderLines)
            .where(and(eq(orderLines.id, input.lineId), eq(orderLines.orderId, own.orderId)))
        : [];
      if (!line) throw notFound('This order has no such line');
      if (line.purchaseId === null) throw conflict('This line has not been paid for');
      targetId = line.purchaseId;
    }
    const row = await holdRefundable(tx, targetId, input.lineId !== undefined ? 'This line has already been refunded' : ALREADY_REFUNDED);
    const left = row.price - row.refundedAmount;
    if (input.amount !== undefined && input.amount > left) {
      throw conflict(`At most ${formatPrice(left)} of this order can still be refunded`, { amount: `At most ${formatPrice(left)}` });
    }
    const amount = input.amount ?? left;

    // A line of a basket order was paid through its order's session, together with the other lines.
    const line = await lineOfPurchase(tx, row.id);
    const [paidThrough] = await tx
      .select({
        provider: checkoutSessions.provider,
        providerSessionId: checkoutSessions.providerSessionId,
        paymentId: checkoutSessions.providerPaymentId,
      })
      .from(checkoutSessions)
      .where(line ? eq(checkoutSessions.id, line.sessionId) : eq(checkoutSessions.purchaseId, row.id))
      .limit(1);
    const [info] = await tx
      .select({ stripeSessionId: purchaseCustomerInfo.stripeSessionId })
      .from(purchaseCustomerInfo)
      .where(eq(purchaseCustomerInfo.purchaseId, row.id));
    const providerSessionId = paidThrough?.providerSessionId ?? info?.stripeSessionId ?? null;
    // Money only moved for Stripe payments; local test payments and seeded orders are only recorded.
    if (amount > 0 && (paidThrough?.provider === 'stripe' || (!paidThrough && providerSessionId?.startsWith('cs_')))) {
      if (payments.name !== 'stripe' || !payments.refund) {
        throw conflict('This order was paid through Stripe, which is not configured: refund it in Stripe');
      }
      // The first whole refund of a row keeps the key it always had; any other is keyed by what was given
      // back before it, so a retry after a timeout is the same refund and a later one is a new one.
      const first = input.amount === undefined && row.refundedAmount === 0;
      try {
        await payments.refund({
          providerSessionId: providerSessionId ?? '',
          paymentId: paidThrough?.paymentId ?? null,
          idempotencyKey: first ? `refund-purchase-${row.id}` : `refund-purchase-${row.id}-${row.refundedAmount}-${amount}`,
          // One line of several, or a part, gives back that much, not the whole payment.
          ...((line && line.lines > 1) || !first ? { amount } : {}),
        });
      } catch (error) {
        deps.log.error({ err: error, purchaseId: row.id }, 'the payment provider refused the refund');
        throw new AppError('PAYMENT_UNAVAILABLE', 502, 'The payment service could not refund this order. Please try again shortly.');
      }
    }
    const now = clock.now();
    const { whole, withdrawn } = await recordRefund(deps, tx, row, amount, { actorId, source: 'admin' }, now);
    await audit(
      tx,
      actorId,
      {
        action: 'order.refund',
        targetType: 'purchase',
        targetId: row.id,
        details: { orderReference: row.orderReference, amount, whole, withdrawn: withdrawn.filter((id) => id !== row.id) },
      },
      now,
    );
  });
}

/**
 * A signed charge.refunded (a refund made from the admin page, or in Stripe's dashboard). The event says
 * how much of the payment has been refunded in all; what this site has not recorded yet of that is
 * recorded now, shared over the payment's rows by what is left of each (decision 0082). A full refund
 * takes every row back; the event of a refund made here finds it recorded already.
 */
export async function handleRefundEvent(deps: AppDeps, event: PaymentEvent): Promise<string> {
  const { db } = deps.database;
  const { clock } = deps;
  const refund = event.refund!;
  return db.transaction(async (tx) => {
    const now = clock.now();
    const fresh = await isFirstDelivery(tx, event, now);
    if (!fresh) return 'duplicate-event';
    // A partial refund without its running total cannot be told from one already recorded.
    if (!refund.full && refund.amountRefunded == null) return 'partial-refund-ignored';
    const matches = [
      refund.checkoutId ? eq(checkoutSessions.id, refund.checkoutId) : undefined,
      refund.paymentId ? eq(checkoutSessions.providerPaymentId, refund.paymentId) : undefined,
    ].filter((c) => c !== undefined);
    if (matches.length === 0) return 'unknown-session';
    const [session] = await tx
      .select({ id: checkoutSessions.id, purchaseId: checkoutSessions.purchaseId })
      .from(checkoutSessions)
      .where(and(or(...matches), eq(checkoutSessions.status, 'completed')))
      .limit(1);
    if (!session) return 'unknown-session';
    const order = await orderOfSession(tx, session.id);
    const paidRows = order ? await linePurchaseIds(tx, order.id) : session.purchaseId ? [session.purchaseId] : [];
    if (paidRows.length === 0) return 'unknown-session';
    // Locked in one order (by id), so this and an admin refund never wait on each other in a circle.
    const locked = await tx
      .select({ id: purchases.id, price: purchases.price, refundedAmount: purchases.refundedAmount, status: purchases.status })
      .from(purchases)
      .where(and(inArray(purchases.id, paidRows), inArray(purchases.kind, REFUNDABLE_KINDS)))
      .orderBy(asc(purchases.id))
      .for('update');
    const open = locked.filter((r) => r.status !== 'refunded');
    const left = open.map((r) => r.price - r.refundedAmount);
    const recorded = locked.reduce((sum, r) => sum + (r.status === 'refunded' ? r.price : r.refundedAmount), 0);
    const due = refund.full ? left.reduce((a, b) => a + b, 0) : Math.max(0, refund.amountRefunded! - recorded);
    if (open.length === 0 || (due === 0 && !refund.full)) return refund.full ? 'already-refunded' : 'already-recorded';
    const shares = shareOut(due, left);
    let wholeRows = 0;
    for (const [i, r] of open.entries()) {
      // A part refunded at the provider touches only the rows it is shared over.
      if (shares[i] === 0 && !refund.full) continue;
      const { whole } = await recordRefund(deps, tx, r, shares[i], { actorId: null, source: 'provider' }, now);
      if (whole) wholeRows += 1;
    }
    return refund.full || wholeRows === open.length ? 'refunded' : 'partial-refund-recorded';
  });
}
