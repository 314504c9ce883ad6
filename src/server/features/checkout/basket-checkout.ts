/**
 * POST /api/checkout/basket (decision 0073): one payment for every line of the reader's basket, and one
 * order with those lines. Everything is checked before any payment exists; the same basket sent again
 * (a double click, ten tabs, two instances) answers the one checkout it already started.
 */
import { eq } from 'drizzle-orm';
import { CURRENCY, PHYSICAL_FORMATS } from '@shared/constants';
import { BASKET_MESSAGES, type BasketCheckoutRequest } from '@shared/schemas/basket';
import type { CheckoutResponse } from '@shared/schemas/checkout';
import type { AppDeps } from '../../deps';
import { checkoutSessions, orderLines, orders, users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { AppError } from '../../platform/http/errors';
import { type PricedLine, acceptPrices, applyCode, chargedParts, linesTotals, priceBasketLines, shippingLineName, storedLines } from './basket';
import type { DiscountRow } from '../discounts/service';
import { orderReferenceFor } from './fulfilment';
import { alreadyOwned, answerRepeatedIntent, checkoutInProgress, findIntentSession } from './repeat-purchases';
import type { OrderTotals } from './order-totals';
import { CHECKOUT_TTL_MS } from './service';

const isPrint = (format: string) => (PHYSICAL_FORMATS as readonly string[]).includes(format);

/** The first line that cannot be bought refuses the whole checkout, naming that line. */
async function refuseProblemLines(deps: AppDeps, userId: number, lines: PricedLine[]): Promise<void> {
  const problem = lines.find((l) => l.problem !== null);
  if (!problem) return;
  const message = problem.problem!;
  if (problem.issue === 'owned') throw new AppError(alreadyOwned().code, 409, message);
  if (problem.issue === 'priceChanged') {
    // The refusal is how the reader learns the new prices; their basket now shows them, and the next
    // Checkout charges what it shows.
    await acceptPrices(deps.database.db, userId, lines);
    throw new AppError('PRICE_CHANGED', 409, `${message}. Please check your basket and try again.`);
  }
  throw new AppError('NOT_AVAILABLE', 409, message);
}

/**
 * The purchase intent of a basket: the same lines (by basket row, quantity and price), code and
 * destination. Rows bought are removed from the basket, so the next basket is a new intent.
 */
function basketIntentKey(lines: PricedLine[], discountCodeId: number | null, input: BasketCheckoutRequest, totals: OrderTotals): string {
  const content = JSON.stringify([
    lines.map((l) => [l.id, l.quantity, l.amount]),
    discountCodeId,
    input.shippingCountry ?? null,
    input.billingCountry ?? null,
    totals.total,
  ]);
  return `basket-${sha256(content).slice(0, 40)}`;
}

/** The basket's shipping and tax, from the author's zones and rates (or Stripe's tax, with Stripe). */
export function basketTotals(deps: Pick<AppDeps, 'database' | 'payments'>, lines: PricedLine[], input: BasketCheckoutRequest): Promise<OrderTotals> {
  return linesTotals(deps.database.db, lines, {
    shippingCountry: input.shippingCountry ?? null,
    billingCountry: input.billingCountry ?? null,
    providerTaxes: deps.payments.name === 'stripe',
  });
}

export async function createBasketCheckout(deps: AppDeps, userId: number, input: BasketCheckoutRequest): Promise<CheckoutResponse> {
  const { db } = deps.database;
  const { clock } = deps;
  const now = clock.now();
  const lines = await priceBasketLines(db, userId, await storedLines(db, userId), now);
  if (lines.length === 0) throw new AppError('BASKET_EMPTY', 400, BASKET_MESSAGES.empty);
  await refuseProblemLines(deps, userId, lines);
  const code = await applyCode(db, lines, input.discountCode, now);
  // Shipping and tax are settled here too: a country outside every zone is refused before any payment.
  const totals = await basketTotals(deps, lines, input);
  const key = basketIntentKey(lines, code?.id ?? null, input, totals);
  return startOrderCheckout(deps, userId, { lines, code, totals, key, input, cancelPath: '/basket' });
}

export interface OrderCheckout {
  /** Priced lines with nothing in the way (the caller refused any problem). */
  lines: PricedLine[];
  code: DiscountRow | null;
  totals: OrderTotals;
  /** The purchase intent: the same key answers the checkout it already started. */
  key: string;
  input: BasketCheckoutRequest;
  /** Where the payment page's Cancel returns. */
  cancelPath: string;
}

/**
 * One payment and one order for priced lines: the basket's checkout, and a bundle bought on its own
 * (decision 0095), share this so there is one copy of the order, its lines and the provider call.
 */
export async function startOrderCheckout(deps: AppDeps, userId: number, checkout: OrderCheckout): Promise<CheckoutResponse> {
  const { db } = deps.database;
  const { clock, random, payments, config } = deps;
  const now = clock.now();
  const { lines, code, totals, key, input } = checkout;
  const parts = chargedParts(lines);
  const [first] = parts;
  const intent = { bookId: first.bookId, format: first.format };
  const earlier = await findIntentSession(db, userId, key);
  const answer = earlier && (await answerRepeatedIntent(db, earlier, intent, now));
  if (answer) return answer;

  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('UNAUTHENTICATED', 401, 'Authentication required');
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const { total } = totals;
  const id = `cs_${random.token(18)}`;
  const expiresAt = new Date(now.getTime() + CHECKOUT_TTL_MS);
  const created = await db.transaction(async (tx) => {
    // The session names its first line's book and format, so every reader of sessions (the payment page,
    // reconciliation, refunds) keeps working; the order's lines are what was bought.
    const inserted = await tx
      .insert(checkoutSessions)
      .values({
        id,
        userId,
        bookId: first.bookId,
        format: first.format,
        amount: total,
        currency: CURRENCY,
        provider: payments.name,
        status: 'open',
        createdAt: now,
        expiresAt,
        discountCodeId: code?.id ?? null,
        originalAmount: code ? subtotal : null,
        idempotencyKey: key,
      })
      .onConflictDoNothing({ target: [checkoutSessions.userId, checkoutSessions.idempotencyKey] })
      .returning({ id: checkoutSessions.id });
    if (inserted.length === 0) return false;
    const [order] = await tx
      .insert(orders)
      .values({
        checkoutSessionId: id,
        userId,
        reference: orderReferenceFor(id),
        subtotal,
        total,
        shippingCountry: input.shippingCountry ?? null,
        shipping: totals.shipping?.amount ?? 0,
        tax: totals.tax,
        pricesIncludeTax: totals.pricesIncludeTax,
        taxCountry: totals.taxCountry,
        createdAt: now,
      })
      .returning({ id: orders.id });
    await tx.insert(orderLines).values(
      parts.map((p, index) => ({
        orderId: order.id,
        position: index + 1,
        kind: 'item',
        bookId: p.bookId,
        format: p.format,
        description: p.description,
        quantity: p.quantity,
        unitPrice: p.unitPrice,
        amount: totals.lines[index].amount,
        tax: totals.lines[index].tax,
        taxRate: totals.lines[index].rate,
        bundleId: p.bundleId,
      })),
    );
    if (totals.shipping) {
      await tx.insert(orderLines).values({
        orderId: order.id,
        position: parts.length + 1,
        kind: 'shipping',
        description: shippingLineName(input.shippingCountry!),
        quantity: 1,
        unitPrice: totals.shipping.amount,
        amount: totals.shipping.amount,
        tax: totals.shipping.tax,
        taxRate: totals.shipping.rate,
      });
    }
    return true;
  });
  if (!created) {
    // The same basket arrived twice at once: the other request owns the checkout.
    const other = await findIntentSession(db, userId, key);
    const again = other && (await answerRepeatedIntent(db, other, intent, now));
    if (again) return again;
    throw checkoutInProgress();
  }

  const base = config.publicUrl.origin;
  try {
    const payment = await payments.createPayment({
      checkoutId: id,
      userId,
      bookId: first.bookId,
      format: first.format,
      amount: total,
      currency: CURRENCY,
      productName: lines.length === 1 && lines[0].bundle ? lines[0].title : first.description,
      lineItems: parts.map((p, index) => ({
        name: p.description,
        unitAmount: totals.lines[index].amount / p.quantity,
        quantity: p.quantity,
        format: p.format,
      })),
      // Stripe adds shipping as its shipping option and computes the tax (Stripe Tax) on the same basis.
      shippingOption: totals.shipping ? { name: shippingLineName(input.shippingCountry!), amount: totals.shipping.amount } : null,
      automaticTax: totals.taxAtPayment ? { pricesIncludeTax: totals.pricesIncludeTax } : null,
      customerEmail: user.email,
      collectShipping: parts.some((p) => isPrint(p.format)),
      shippingCountry: input.shippingCountry ?? null,
      // The confirmation lists every line; only the provider's event (or the local Pay) fulfils.
      successUrl: `${base}/pay/${id}`,
      cancelUrl: `${base}${checkout.cancelPath}`,
      expiresAt,
    });
    await db.update(checkoutSessions).set({ providerSessionId: payment.providerSessionId, paymentUrl: payment.url }).where(eq(checkoutSessions.id, id));
    return { url: payment.url };
  } catch (error) {
    await db.update(checkoutSessions).set({ status: 'cancelled' }).where(eq(checkoutSessions.id, id));
    deps.log.error({ err: error, checkoutId: id }, 'payment provider refused to create a session');
    throw new AppError('PAYMENT_UNAVAILABLE', 502, 'The payment service is unavailable. Please try again shortly.');
  }
}
