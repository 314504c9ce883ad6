/**
 * What several parts of the site need to start a purchase: the book on sale, the checkout call and the
 * /checkout address (SPEC 4, SPEC 7). The checkout feature, gifts and pre-orders all start purchases.
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

/** POST /api/checkout: the server prices the order and answers the payment page to go to. */
export async function createCheckout(
  bookId: number,
  format: string,
  extras: { discountCode?: string; gift?: GiftRequest } = {},
): Promise<CheckoutResponse> {
  const body: Record<string, unknown> = { bookId, format };
  if (extras.discountCode) body.discountCode = extras.discountCode;
  if (extras.gift) body.gift = extras.gift;
  const res = await apiRequest('POST', '/api/checkout', body);
  return (await res.json()) as CheckoutResponse;
}

/** The /checkout address of SPEC 4 step 4 (the amount is for display; the server prices the order). */
export function checkoutPath(input: { amount: number; title: string; format: string; bookId: number; discountCode?: string }): string {
  const query = new URLSearchParams({
    amount: String(input.amount),
    title: input.title,
    format: input.format,
    bookId: String(input.bookId),
  });
  if (input.discountCode) query.set('discountCode', input.discountCode);
  return `/checkout?${query.toString()}`;
}
