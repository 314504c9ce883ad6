/**
 * The totals of a basket beyond its lines (decisions 0080 and 0081): the shipping line, each line's tax
 * and the amount charged. The basket's answer and its checkout use this one function, so what the reader
 * is shown is what is charged.
 */
import { type PurchaseFormat, isDigitalFormat } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { quoteShipping } from '../shipping/service';
import { type RateBp, taxRulesFor, unitTax } from '../tax/service';

export interface TotalsLine {
  format: PurchaseFormat;
  quantity: number;
  /** The line's charge before tax is added (after any discount). */
  amount: number;
}

export interface TaxedPart {
  /** Charged, tax included whichever way prices are shown. */
  amount: number;
  tax: number;
  /** Null when the provider (Stripe Tax) decides the tax at payment. */
  rate: RateBp | null;
}

export interface OrderTotals {
  lines: TaxedPart[];
  /** The shipping line; null when nothing is shipped or it ships free. */
  shipping: (TaxedPart & { charge: number; zoneName: string }) | null;
  /** Shipping to this destination is free (a zone's threshold was reached). */
  freeShipping: boolean;
  tax: number;
  net: number;
  total: number;
  pricesIncludeTax: boolean;
  taxCountry: string | null;
  /** Stripe decides the tax at payment: the amounts here carry none of it. */
  taxAtPayment: boolean;
}

export interface TotalsOptions {
  shippingCountry: string | null;
  /** Where a reader of a digital-only basket lives, for its tax; the shipping country wins when given. */
  billingCountry: string | null;
  /** True with Stripe: Stripe Tax computes the tax, nothing is taxed from the author's table. */
  providerTaxes: boolean;
  /**
   * The basket page prices print before the reader has picked a destination (or picked one no zone
   * covers): the lines and their tax are shown, shipping is left out. Checkout never sets this.
   */
  withoutShipping?: boolean;
}

function taxed(amount: number, quantity: number, rate: RateBp, included: boolean): TaxedPart {
  const perUnit = unitTax(amount / quantity, rate, included);
  const tax = perUnit * quantity;
  return { amount: included ? amount : amount + tax, tax, rate };
}

export async function orderTotals(db: DbOrTx, lines: TotalsLine[], options: TotalsOptions): Promise<OrderTotals> {
  const printLines = lines.filter((l) => !isDigitalFormat(l.format));
  const itemsTotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const printCopies = printLines.reduce((sum, l) => sum + l.quantity, 0);
  const quote = options.withoutShipping ? null : await quoteShipping(db, options.shippingCountry, printCopies, itemsTotal);
  const taxCountry = options.shippingCountry ?? options.billingCountry ?? null;
  const rules = await taxRulesFor(db, taxCountry);
  const included = rules.pricesIncludeTax;
  const untaxed = (amount: number): TaxedPart => ({ amount, tax: 0, rate: null });
  const taxedLines = lines.map((l) => (options.providerTaxes ? untaxed(l.amount) : taxed(l.amount, l.quantity, rules.rateOf(l.format), included)));
  let shipping: OrderTotals['shipping'] = null;
  if (quote && quote.charge > 0) {
    // Shipping carries the rate of the goods it carries (the first print line's format): the author's
    // table decides what that rate is, not this code.
    const part = options.providerTaxes ? untaxed(quote.charge) : taxed(quote.charge, 1, rules.rateOf(printLines[0].format), included);
    shipping = { ...part, charge: quote.charge, zoneName: quote.zoneName };
  }
  const parts = shipping ? [...taxedLines, shipping] : taxedLines;
  const total = parts.reduce((sum, p) => sum + p.amount, 0);
  const tax = parts.reduce((sum, p) => sum + p.tax, 0);
  return {
    lines: taxedLines,
    shipping,
    freeShipping: quote !== null && quote.charge === 0,
    tax,
    net: total - tax,
    total,
    pricesIncludeTax: included,
    taxCountry,
    taxAtPayment: options.providerTaxes,
  };
}
