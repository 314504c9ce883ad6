/**
 * The local test payment page (PAYMENT_PROVIDER=local): its sessions are paid or cancelled here, and a
 * payment goes through the same fulfilment as a Stripe webhook.
 */
import { and, eq } from 'drizzle-orm';
import { type PaymentResult, REPEAT_PURCHASE_MESSAGES, type ShippingAddress, SHIPPING_ADDRESS_REQUIRED, storedAddress } from '@shared/schemas/checkout';
import { DISCOUNT_REFUSALS } from '@shared/schemas/discounts';
import type { AppDeps } from '../../deps';
import { checkoutSessions } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import { LocalPaymentProvider } from '../../platform/payments';
import { handlePaymentEvent } from './fulfilment';
import { completionRedirect, getPaymentSession } from './service';
import { alreadyOwned } from './repeat-purchases';
import { LINE_PROBLEMS } from './basket';
import { orderItemLines } from './order-fulfilment';
import { isDigitalFormat } from '@shared/constants';
import { ownsFormat } from '../library/service';
import type { DbOrTx } from '../../db/client';

/** The reader's own session, and only one the local provider created. */
async function localSession(deps: Pick<AppDeps, 'database' | 'payments' | 'clock'>, userId: number, sessionId: string) {
  const { db } = deps.database;
  const provider = deps.payments;
  const session = await getPaymentSession(db, userId, sessionId, deps.clock.now());
  const [row] = await db
    .select({
      provider: checkoutSessions.provider,
      providerSessionId: checkoutSessions.providerSessionId,
      gift: checkoutSessions.gift,
    })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, sessionId));
  if (!(provider instanceof LocalPaymentProvider) || row.provider !== 'local') {
    throw notFound('Checkout session not found');
  }
  return { session, provider, providerSessionId: row.providerSessionId, row };
}

/** Cancels a checkout that is still open; conditional, so it can never undo a completed checkout. */
async function closeOpenSession(db: DbOrTx, sessionId: string) {
  await db
    .update(checkoutSessions)
    .set({ status: 'cancelled' })
    .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.status, 'open')));
}

/**
 * A digital format of this checkout the reader came to own since it started (another tab, a gift), named
 * as the refusal names it; null when there is none.
 */
async function ownedLine(db: DbOrTx, userId: number, session: Awaited<ReturnType<typeof getPaymentSession>>): Promise<string | null> {
  if (!session.lines) {
    return session.digital && (await ownsFormat(db, userId, session.book.id, session.format)) ? REPEAT_PURCHASE_MESSAGES.alreadyOwned : null;
  }
  for (const line of await orderItemLines(db, session.id)) {
    if (isDigitalFormat(line.format) && (await ownsFormat(db, userId, line.bookId, line.format))) return LINE_PROBLEMS.owned(line.description);
  }
  return null;
}

export async function payLocalSession(
  deps: AppDeps,
  userId: number,
  sessionId: string,
  shippingAddress?: ShippingAddress,
): Promise<PaymentResult> {
  const { session, provider, providerSessionId, row } = await localSession(deps, userId, sessionId);
  if (session.status === 'open' && new Date(session.expiresAt) <= deps.clock.now()) {
    throw new AppError('CHECKOUT_EXPIRED', 410, 'This checkout has expired. Please start your purchase again.');
  }
  if (session.status === 'cancelled' || session.status === 'expired') {
    throw new AppError('CHECKOUT_CLOSED', 409, 'This checkout was cancelled. Please start your purchase again.');
  }
  const ownedMeanwhile = session.status === 'open' && !row.gift ? await ownedLine(deps.database.db, userId, session) : null;
  if (ownedMeanwhile) {
    // Bought meanwhile through another checkout (another tab): this one is closed, nothing is charged.
    await closeOpenSession(deps.database.db, session.id);
    // Unless what made it owned was this very checkout, paid by a concurrent request (a double click, or
    // two instances behind the proxy): that reader sees the same confirmation as the request that paid.
    const current = await getPaymentSession(deps.database.db, userId, session.id, deps.clock.now());
    if (current.status !== 'completed') throw session.lines ? new AppError(alreadyOwned().code, 409, ownedMeanwhile) : alreadyOwned();
    return paymentResult(current);
  }
  if (session.status === 'open') {
    // A print order needs somewhere to go; Stripe's page asks for it itself, this page asks here.
    if (!session.digital && !shippingAddress) {
      throw new AppError('VALIDATION_ERROR', 400, SHIPPING_ADDRESS_REQUIRED, { shippingAddress: SHIPPING_ADDRESS_REQUIRED });
    }
    const paid = await handlePaymentEvent(
      deps,
      provider.paymentEvent({
        id: session.id,
        providerSessionId,
        amount: session.amount,
        currency: session.currency,
        customerName: '',
        customerEmail: session.customerEmail,
        shippingAddress: !session.digital && shippingAddress ? storedAddress(shippingAddress) : null,
      }),
      'local',
    );
    // The code ran out meanwhile: refused, nothing charged (decision 0050).
    if (paid.outcome === 'discount-ran-out') throw new AppError('DISCOUNT_RAN_OUT', 409, DISCOUNT_REFUSALS.ranOut);
  }
  return paymentResult(await getPaymentSession(deps.database.db, userId, session.id, deps.clock.now()));
}

const paymentResult = (session: Awaited<ReturnType<typeof getPaymentSession>>): PaymentResult => ({
  status: session.status,
  redirectTo: completionRedirect(session),
  orderReference: session.orderReference,
});

export async function cancelLocalSession(deps: Pick<AppDeps, 'database' | 'payments' | 'clock'>, userId: number, sessionId: string): Promise<PaymentResult> {
  const { db } = deps.database;
  const { session } = await localSession(deps, userId, sessionId);
  if (session.status === 'open') {
    await closeOpenSession(db, session.id);
  }
  const after = await getPaymentSession(db, userId, session.id, deps.clock.now());
  return {
    status: after.status,
    redirectTo: after.status === 'completed' ? completionRedirect(after) : '/#purchase',
    orderReference: after.orderReference,
  };
}
