import { and, eq, inArray, ne, or } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { refundMail } from './templates';
import type { DbOrTx } from '../../db/client';
import { books, checkoutSessions, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import { AppError, conflict, notFound } from '../../platform/errors';
import type { PaymentEvent } from '../../platform/payments';
import { audit, type ActorId } from '../../platform/audit';
import { isFirstDelivery } from './payment-events';

/** Only rows somebody paid for are refunded; rows they paid for (included ebook, claimed gift) follow. */
const REFUNDABLE_KINDS = ['paid', 'gift'];
export const ALREADY_REFUNDED = 'This order has already been refunded';

/**
 * The refund itself, one statement: the paid row and every row it paid for (paid_by_purchase_id) become
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

async function mailBuyer(deps: AppDeps, tx: DbOrTx, purchaseId: number): Promise<void> {
  const [row] = await tx
    .select({
      email: users.email,
      name: users.displayName,
      username: users.username,
      title: books.title,
      format: purchases.format,
      price: purchases.price,
      orderReference: purchases.orderReference,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .innerJoin(books, eq(books.id, purchases.bookId))
    .where(eq(purchases.id, purchaseId));
  const mail = refundMail({ to: row.email, name: row.name || row.username, title: row.title, format: row.format, price: row.price, orderReference: row.orderReference });
  await deps.mailer.enqueue(mail, tx);
}

/**
 * POST /api/admin/orders/{id}/refund. The row is locked while the provider refunds, so a concurrent
 * second refund (or the provider's charge.refunded event) waits and then finds it refunded: a Stripe
 * refund is asked for once, with an idempotency key, and a failed one changes nothing here.
 */
export async function refundOrder(deps: AppDeps, actorId: ActorId, purchaseId: number): Promise<void> {
  const { db } = deps.database;
  const { clock, payments } = deps;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ kind: purchases.kind, status: purchases.status, orderReference: purchases.orderReference })
      .from(purchases)
      .where(eq(purchases.id, purchaseId))
      .for('update');
    if (!row) throw notFound('Order not found');
    if (!REFUNDABLE_KINDS.includes(row.kind)) throw conflict('This item came with another order: refund that order instead');
    if (row.status === 'refunded') throw conflict(ALREADY_REFUNDED);
    if (row.status === 'pending') throw conflict('A pending order cannot be refunded');

    const [paidThrough] = await tx
      .select({
        provider: checkoutSessions.provider,
        providerSessionId: checkoutSessions.providerSessionId,
        paymentId: checkoutSessions.providerPaymentId,
      })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.purchaseId, purchaseId))
      .limit(1);
    const [info] = await tx
      .select({ stripeSessionId: purchaseCustomerInfo.stripeSessionId })
      .from(purchaseCustomerInfo)
      .where(eq(purchaseCustomerInfo.purchaseId, purchaseId));
    const providerSessionId = paidThrough?.providerSessionId ?? info?.stripeSessionId ?? null;
    // Money only moved for Stripe payments; local test payments and seeded orders are only recorded.
    if (paidThrough?.provider === 'stripe' || (!paidThrough && providerSessionId?.startsWith('cs_'))) {
      if (payments.name !== 'stripe' || !payments.refund) {
        throw conflict('This order was paid through Stripe, which is not configured: refund it in Stripe');
      }
      try {
        await payments.refund({
          providerSessionId: providerSessionId ?? '',
          paymentId: paidThrough?.paymentId ?? null,
          idempotencyKey: `refund-purchase-${purchaseId}`,
        });
      } catch (error) {
        deps.log.error({ err: error, purchaseId }, 'the payment provider refused the refund');
        throw new AppError('PAYMENT_UNAVAILABLE', 502, 'The payment service could not refund this order. Please try again shortly.');
      }
    }
    const now = clock.now();
    const refunded = await markRefunded(tx, purchaseId, actorId, now);
    await mailBuyer(deps, tx, purchaseId);
    await audit(
      tx,
      actorId,
      { action: 'order.refund', targetType: 'purchase', targetId: purchaseId, details: { orderReference: row.orderReference, withdrawn: refunded.filter((id) => id !== purchaseId) } },
      now,
    );
  });
}

/**
 * A signed charge.refunded (a refund made from the admin page, or in Stripe's dashboard): the same
 * refund, once. Partial refunds at the provider leave the purchase as it is (decision 0052).
 */
export async function handleRefundEvent(deps: AppDeps, event: PaymentEvent): Promise<string> {
  const { db } = deps.database;
  const { clock } = deps;
  const refund = event.refund!;
  return db.transaction(async (tx) => {
    const now = clock.now();
    const fresh = await isFirstDelivery(tx, event, now);
    if (!fresh) return 'duplicate-event';
    if (!refund.full) return 'partial-refund-ignored';
    const matches = [
      refund.checkoutId ? eq(checkoutSessions.id, refund.checkoutId) : undefined,
      refund.paymentId ? eq(checkoutSessions.providerPaymentId, refund.paymentId) : undefined,
    ].filter((c) => c !== undefined);
    if (matches.length === 0) return 'unknown-session';
    const [session] = await tx
      .select({ purchaseId: checkoutSessions.purchaseId })
      .from(checkoutSessions)
      .where(and(or(...matches), eq(checkoutSessions.status, 'completed')))
      .limit(1);
    if (!session?.purchaseId) return 'unknown-session';
    const [row] = await tx
      .select({ status: purchases.status, kind: purchases.kind })
      .from(purchases)
      .where(and(eq(purchases.id, session.purchaseId), inArray(purchases.kind, REFUNDABLE_KINDS)))
      .for('update');
    if (!row || row.status === 'refunded') return 'already-refunded';
    await markRefunded(tx, session.purchaseId, null, now);
    await mailBuyer(deps, tx, session.purchaseId);
    return 'refunded';
  });
}
