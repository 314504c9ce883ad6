/**
 * What several parts of the site need to start a purchase: the book on sale, the checkout call and the
 * /checkout address (docs/PRODUCT.md, Checkout). The checkout feature, gifts and pre-orders all start purchases.
 */
import type { FeaturedBook } from '@shared/schemas/books';
import type { CheckoutResponse } from '@shared/schemas/checkout';
import type { GiftRequest } from '@shared/schemas/gifts';
import { apiRequest } from './api-client';

export const FEATURED_BOOK_PATH = '/api/books/featured';

/** The book on sale, or null when there is none (404) or it cannot be read. */
export async function fetchFeaturedBook(): Promise<FeaturedBook | null> {
  try {
    const res = await apiRequest('GET', FEATURED_BOOK_PATH);
    const data = (await res.json()) as Partial<FeaturedBook>;
    return typeof data.id === 'number' && typeof data.title === 'string' ? { id: data.id, title: data.title } : null;
  } catch {
    return null;
  }
}

/** The query value that names one purchase intent (one click on Buy) on the /checkout address. */
export const INTENT_PARAM = 'intent';

/**
 * A fresh purchase-intent key: random, URL-safe, and made without crypto.randomUUID, which plain-http
 * hosts other than localhost do not offer.
 */
export function newPurchaseIntentKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * POST /api/checkout: the server prices the order and answers the payment page to go to. With the same
 * idempotencyKey it answers the checkout already started (or its confirmation, `completed`), never a new one.
 */
export async function createCheckout(
  bookId: number,
  format: string,
  extras: { discountCode?: string; gift?: GiftRequest; idempotencyKey?: string; confirmRepeat?: boolean } = {},
): Promise<CheckoutResponse> {
  const body: Record<string, unknown> = { bookId, format };
  if (extras.discountCode) body.discountCode = extras.discountCode;
  if (extras.gift) body.gift = extras.gift;
  if (extras.idempotencyKey) body.idempotencyKey = extras.idempotencyKey;
  if (extras.confirmRepeat) body.confirmRepeat = true;
  const res = await apiRequest('POST', '/api/checkout', body);
  return (await res.json()) as CheckoutResponse;
}

/**
 * The /checkout address (docs/PRODUCT.md, Buying a format) (the amount is for display; the server prices the order). Each
 * address is one purchase intent: it carries a fresh key, so coming back to it never starts a second payment.
 */
export function checkoutPath(input: {
  amount: number;
  title: string;
  format: string;
  bookId: number;
  discountCode?: string;
  /** The reader confirmed another print copy of a format bought a moment ago. */
  confirmRepeat?: boolean;
}): string {
  const query = new URLSearchParams({
    amount: String(input.amount),
    title: input.title,
    format: input.format,
    bookId: String(input.bookId),
  });
  if (input.discountCode) query.set('discountCode', input.discountCode);
  if (input.confirmRepeat) query.set('confirmRepeat', '1');
  query.set(INTENT_PARAM, newPurchaseIntentKey());
  return `/checkout?${query.toString()}`;
}
