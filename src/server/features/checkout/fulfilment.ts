import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { DEFAULT_MAX_DOWNLOADS, isDigitalFormat } from '@shared/constants';
import { books, checkoutSessions, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import type { PaymentEvent } from '../../platform/payments';
import { discountCodeName, redeemDiscount } from '../discounts/service';
import { type RanOutSession, settleRanOutCheckout } from './discount-ran-out';
import { addIncludedEbook } from './included-ebook';
import { addIncludedEditions } from '../library/service';
import { giftPurchaseFields, recordGift } from '../gifts/service';
import { isFirstDelivery } from './payment-events';
import { receiptMail } from './templates';
import { fulfilOrder, orderOfSession } from './order-fulfilment';
import { fetchProviderLineTaxes, storeProviderTaxes } from './provider-taxes';

export type FulfilmentOutcome =
  | 'fulfilled'
  | 'duplicate-event'
  | 'ignored'
  | 'not-paid'
  | 'unknown-session'
  | 'mismatch'
  | 'already-closed'
  | 'discount-ran-out';

export interface FulfilmentResult {
  outcome: FulfilmentOutcome;
  purchaseId?: number;
  orderReference?: string;
  format?: string;
}

/** One order reference per checkout session, so even a second insert attempt would hit the unique key. */
export const orderReferenceFor = (checkoutId: string) => `WWD-${sha256(checkoutId).slice(0, 10).toUpperCase()}`;

/**
 * The one fulfilment path, for Stripe webhooks and the local payment page alike. Everything happens in
 * one transaction, and the two guards are single statements the database arbitrates:
 *  - the event id is inserted into payment_events (primary key), so a redelivered event does nothing;
 *  - the session moves 'open' -> 'completed' with UPDATE ... WHERE status = 'open' RETURNING, so of any
 *    number of concurrent deliveries exactly one gets the row and records the purchase.
 */
export async function handlePaymentEvent(
  deps: AppDeps,
  event: PaymentEvent,
  source: 'webhook' | 'local' | 'reconciliation' = 'webhook',
): Promise<FulfilmentResult> {
  const { db } = deps.database;
  const { clock, mailer, config } = deps;
  const log = deps.log.child({ paymentEventId: event.id, type: event.type });
  // The tax of each line of a provider-taxed order, asked for before the transaction opens.
  const lineTaxes = await fetchProviderLineTaxes(deps, event);
  // Set when the checkout's code ran out: the transaction then rolls back and the checkout is settled.
  let ranOut: RanOutSession | null = null;

  const result = await db.transaction(async (tx): Promise<FulfilmentResult> => {
    const now = clock.now();
    const fresh = await isFirstDelivery(tx, event, now);
    if (!fresh) return { outcome: 'duplicate-event' as const };

    const c = event.completion;
    if (!c) return { outcome: 'ignored' as const };
    if (!c.paid) {
      log.info('checkout completed without payment yet; waiting for the payment event');
      return { outcome: 'not-paid' as const };
    }

    const [session] = await tx
      .select()
      .from(checkoutSessions)
      .where(
        c.checkoutId
          ? eq(checkoutSessions.id, c.checkoutId)
          : eq(checkoutSessions.providerSessionId, c.providerSessionId),
      )
      .limit(1);
    if (!session || (session.providerSessionId && session.providerSessionId !== c.providerSessionId)) {
      log.warn({ checkoutId: c.checkoutId }, 'payment event for an unknown checkout session');
      return { outcome: 'unknown-session' as const };
    }
    const order = await orderOfSession(tx, session.id);
    // Stripe Tax adds its tax on top when prices exclude tax: the paid amount is ours plus that tax.
    const addedTax = order && !order.pricesIncludeTax && session.provider === 'stripe' ? (c.taxAmount ?? 0) : 0;
    if (c.amount !== session.amount + addedTax || (c.currency ?? '').toUpperCase() !== session.currency.toUpperCase()) {
      log.error(
        { checkoutId: session.id, paid: c.amount, currency: c.currency, expected: session.amount },
        'paid amount or currency does not match the server price; not fulfilled',
      );
      return { outcome: 'mismatch' as const };
    }

    const claimed = await tx
      .update(checkoutSessions)
      .set({ status: 'completed', completedAt: now })
      .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'open')))
      .returning({ id: checkoutSessions.id });
    if (claimed.length === 0) return { outcome: 'already-closed' as const };
    // Counted on payment; a code used up meanwhile rolls the whole fulfilment back (decision 0050).
    if (session.discountCodeId && !(await redeemDiscount(tx, session.discountCodeId)).ok) {
      ranOut = { ...session, paymentId: c.paymentId ?? null };
      tx.rollback();
    }

    if (order) {
      if (session.provider === 'stripe' && (c.taxAmount || lineTaxes)) {
        // The tax Stripe computed, line by line (decision 0080), whether inside the prices or on top.
        await storeProviderTaxes(tx, order, c, lineTaxes, session.amount + addedTax, log);
      }
      const { purchaseIds } = await fulfilOrder(deps, tx, session, order, c, await discountCodeName(tx, session.discountCodeId), now);
      log.info({ checkoutId: session.id, orderId: order.id, purchaseIds, source }, 'order fulfilled');
      return { outcome: 'fulfilled' as const, purchaseId: purchaseIds[0], orderReference: order.reference, format: 'basket' };
    }

    const digital = isDigitalFormat(session.format);
    const orderReference = orderReferenceFor(session.id);
    const [purchase] = await tx
      .insert(purchases)
      .values({
        userId: session.userId,
        bookId: session.bookId,
        format: session.format,
        price: session.amount,
        currency: session.currency,
        purchaseDate: now,
        status: 'completed',
        orderReference,
        // Hardcover and paperback are shipped, not downloaded.
        maxDownloads: digital ? DEFAULT_MAX_DOWNLOADS : 0,
        ...giftPurchaseFields(session),
      })
      .returning({ id: purchases.id });
    const included = await addIncludedEbook(tx, { ...session, id: purchase.id, orderReference }, now);
    // A gift's editions go to its recipient when they claim it, not to the buyer.
    if (!session.gift && (await addIncludedEditions(tx, { ...session, id: purchase.id, orderReference, paidByPurchaseId: null }, now))) {
      included.push('pdf');
    }

    const [buyer] = await tx
      .select({ email: users.email, username: users.username, displayName: users.displayName, title: books.title, releaseAt: books.releaseAt })
      .from(users)
      .innerJoin(books, eq(books.id, sql`${session.bookId}`))
      .where(eq(users.id, session.userId));
    const customerName = c.customerName || buyer.displayName || buyer.username;
    await tx.insert(purchaseCustomerInfo).values({
      purchaseId: purchase.id,
      customerName,
      customerEmail: c.customerEmail || buyer.email,
      stripeSessionId: c.providerSessionId,
      shippingAddress: c.shippingAddress ?? null,
    });
    await tx
      .update(checkoutSessions)
      .set({ purchaseId: purchase.id, providerPaymentId: c.paymentId ?? null })
      .where(eq(checkoutSessions.id, session.id));
    await recordGift(deps, tx, session, purchase.id);
    await mailer.enqueue(
      receiptMail({
        to: buyer.email,
        customerName,
        bookTitle: buyer.title,
        format: session.format,
        amount: session.amount,
        originalAmount: session.originalAmount,
        discountCode: await discountCodeName(tx, session.discountCodeId),
        orderReference,
        purchaseDate: now,
        publicUrl: config.publicUrl,
        giftFor: session.gift?.recipientName,
        included,
        availableAt: buyer.releaseAt && buyer.releaseAt > now ? buyer.releaseAt : null,
      }),
      tx,
    );
    log.info({ checkoutId: session.id, purchaseId: purchase.id, source }, 'purchase fulfilled');
    return { outcome: 'fulfilled' as const, purchaseId: purchase.id, orderReference, format: session.format };
  }).catch(async (error: unknown): Promise<FulfilmentResult> => {
    if (!(error instanceof TransactionRollbackError) || !ranOut) throw error;
    log.warn({ checkoutId: ranOut.id }, 'discount code used up before payment; not fulfilled');
    const settled = await settleRanOutCheckout(deps, event, ranOut);
    // A payment that could not be given back fails the delivery, so the provider sends the event again.
    if (!settled.ok) throw settled.error;
    return { outcome: settled.outcome };
  });
  // Counted after the commit, so a rolled-back fulfilment is never counted.
  if (result.outcome === 'fulfilled') {
    deps.metrics.orders.inc({ format: result.format ?? 'unknown', source });
    // A gift to send at once goes out right after the commit, not at the next poll.
    deps.jobs.kick();
  }
  return result;
}
