import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { checkoutSessions, users } from '../../db/schema';
import type { PaymentEvent } from '../../platform/payments';
import { isFirstDelivery } from './payment-events';
import { discountRanOutMail } from './templates';

/** The checkout whose code ran out, as fulfilment saw it before rolling back. */
export interface RanOutSession {
  id: string;
  userId: number;
  provider: string;
  providerSessionId: string | null;
  paymentId: string | null;
}

/**
 * How settling went: the checkout closed (or the event was already handled), or the payment could not be
 * given back, which the caller lets fail so that the provider delivers the event again.
 */
export type RanOutSettlement =
  | { ok: true; outcome: 'discount-ran-out' | 'duplicate-event' }
  | { ok: false; reason: 'refund-failed'; error: unknown };

/**
 * After the rollback: a checkout whose code ran out is closed without a purchase. On the local page nothing
 * was charged (its Pay answers the refusal); a Stripe payment is given back at once, before the event is
 * recorded, so a failed refund makes the webhook fail and Stripe delivers it again (decision 0050).
 */
export async function settleRanOutCheckout(
  deps: AppDeps,
  event: PaymentEvent,
  session: RanOutSession,
): Promise<RanOutSettlement> {
  const { db } = deps.database;
  const { payments, clock, mailer } = deps;
  if (session.provider !== 'local') {
    if (!payments.refund) return { ok: false, reason: 'refund-failed', error: new Error(`the ${payments.name} provider cannot refund`) };
    try {
      await payments.refund({
        providerSessionId: session.providerSessionId ?? '',
        paymentId: session.paymentId,
        idempotencyKey: `discount-ran-out-${session.id}`,
      });
    } catch (error) {
      return { ok: false, reason: 'refund-failed', error };
    }
  }
  const outcome = await db.transaction(async (tx) => {
    const now = clock.now();
    const fresh = await isFirstDelivery(tx, event, now);
    if (!fresh && session.provider !== 'local') return 'duplicate-event' as const;
    const closed = await tx
      .update(checkoutSessions)
      .set({ status: 'cancelled' })
      .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'open')))
      .returning({ id: checkoutSessions.id });
    if (closed.length > 0 && session.provider !== 'local') {
      const [buyer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, session.userId));
      if (buyer) {
        await mailer.enqueue(discountRanOutMail(buyer.email), tx);
      }
    }
    return 'discount-ran-out' as const;
  });
  return { ok: true, outcome };
}
