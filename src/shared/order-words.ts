/**
 * How an order is put into words wherever a reader or the author sees it (receipts, "Your Orders", the
 * payment and confirmation pages, the admin's orders): statuses in words, never the stored value, and
 * a price as list price, discount and total.
 */
import { type PurchaseStatus, formatPrice, isDigitalFormat } from './constants';
import { preOrderNotice } from './schemas/pre-orders';

/**
 * A purchase's status as the buyer reads it: what is happening to their order. A paid order of a book not
 * out yet (`availableAt`, its release date) is a pre-order, print or digital (issue 25 point 5).
 */
export function orderStatusLabel(status: PurchaseStatus, format: string, availableAt?: string | null): string {
  if (status === 'refunded') return 'Refunded';
  if (status === 'pending') return 'Awaiting payment';
  if (status === 'shipped') return 'Shipped';
  if (availableAt) return preOrderNotice(availableAt);
  return isDigitalFormat(format) ? 'Paid' : 'Preparing to ship';
}

/** The same status for the author's order list, where "completed" means paid and, for print, not yet shipped. */
export function adminStatusLabel(status: PurchaseStatus, format: string): string {
  if (status === 'completed') return isDigitalFormat(format) ? 'Paid' : 'Paid, to ship';
  return orderStatusLabel(status, format);
}

export interface PriceLines {
  /** The price before any discount. */
  listPrice: string;
  /** "-£2.00", or null when no discount was given. */
  discount: string | null;
  /** What was (or is to be) paid. */
  total: string;
}

/** List price, discount and total of an order that charged `amount`, listed at `originalAmount` when a code lowered it. */
export function priceLines(amount: number, originalAmount?: number | null): PriceLines {
  const list = originalAmount != null && originalAmount > amount ? originalAmount : amount;
  return {
    listPrice: formatPrice(list),
    discount: list > amount ? formatPrice(amount - list) : null,
    total: formatPrice(amount),
  };
}
