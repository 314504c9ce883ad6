/**
 * The tax a payment provider computed (Stripe Tax, decision 0080), stored line by line: the completed
 * session's line items are fetched before the fulfilment transaction (no network call holds it open) and
 * written onto the order's lines inside it, with the order's tax their sum.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { checkoutSessions, orderLines, orders } from '../../db/schema';
import type { PaymentEvent, ProviderLineTax } from '../../platform/payments';

type OrderRow = typeof orders.$inferSelect;
type Completion = NonNullable<PaymentEvent['completion']>;

/**
 * The line items of a paid, not yet fulfilled order, when the provider computed its tax; null for a
 * direct purchase, a provider without tax, or an order already paid (a redelivered event).
 */
export async function fetchProviderLineTaxes(deps: Pick<AppDeps, 'database' | 'payments'>, event: PaymentEvent): Promise<ProviderLineTax[] | null> {
  const c = event.completion;
  if (!c?.paid || c.taxAmount === null || c.taxAmount === undefined || !deps.payments.lineTaxes) return null;
  const [order] = await deps.database.db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(checkoutSessions, eq(checkoutSessions.id, orders.checkoutSessionId))
    .where(
      and(
        c.checkoutId ? eq(checkoutSessions.id, c.checkoutId) : eq(checkoutSessions.providerSessionId, c.providerSessionId),
        isNull(orders.paidAt),
      ),
    )
    .limit(1);
  return order ? deps.payments.lineTaxes(c.providerSessionId) : null;
}

/**
 * Writes the provider's tax onto the order: each item line's tax and rate from its line item (matched by
 * position, and checked by quantity and amount), the shipping line's from the session's shipping cost,
 * and the order's tax as their sum. With tax added on top a line's amount grows by its tax, so it stays
 * what was charged for it. When the line items do not match the order's lines, only the order's tax is
 * stored (and the mismatch logged), as before per-line tax existed.
 */
export async function storeProviderTaxes(
  tx: DbOrTx,
  order: OrderRow,
  c: Completion,
  lineTaxes: ProviderLineTax[] | null,
  total: number,
  log: AppDeps['log'],
): Promise<void> {
  const taxAmount = c.taxAmount ?? 0;
  const all = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.position));
  const items = all.filter((l) => l.kind === 'item');
  const shippingLine = all.find((l) => l.kind === 'shipping') ?? null;
  const added = (tax: number) => (order.pricesIncludeTax ? 0 : tax);
  const matches =
    lineTaxes !== null &&
    lineTaxes.length === items.length &&
    items.every((l, i) => lineTaxes[i].quantity === l.quantity && lineTaxes[i].amountTotal === l.amount + added(lineTaxes[i].amountTax));
  const itemsTax = matches ? lineTaxes.reduce((sum, l) => sum + l.amountTax, 0) : 0;
  const shippingTax = shippingLine ? (c.shippingTax?.amount ?? taxAmount - itemsTax) : 0;
  if (!matches || shippingTax < 0 || itemsTax + shippingTax !== taxAmount) {
    if (lineTaxes !== null) log.error({ orderId: order.id, taxAmount }, "the provider's line items do not match the order's lines; its tax is stored for the whole order");
    if (taxAmount === 0) return;
    await tx.update(orders).set({ tax: taxAmount, total }).where(eq(orders.id, order.id));
    Object.assign(order, { tax: taxAmount, total });
    return;
  }
  for (const [i, line] of items.entries()) {
    const { amountTax, rate } = lineTaxes[i];
    await tx
      .update(orderLines)
      .set({ tax: amountTax, taxRate: rate, amount: line.amount + added(amountTax) })
      .where(eq(orderLines.id, line.id));
  }
  let shipping = order.shipping;
  if (shippingLine) {
    shipping = shippingLine.amount + added(shippingTax);
    await tx
      .update(orderLines)
      .set({ tax: shippingTax, taxRate: c.shippingTax?.rate ?? null, amount: shipping })
      .where(eq(orderLines.id, shippingLine.id));
  }
  await tx.update(orders).set({ tax: taxAmount, total, shipping }).where(eq(orders.id, order.id));
  Object.assign(order, { tax: taxAmount, total, shipping });
}
