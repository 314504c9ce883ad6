/** Store reads and calls for the purchase flow (formats with server prices, checkout, payment page). */
import { useQuery } from '@tanstack/react-query';
import type { FeaturedBook } from '@shared/schemas/books';
import type { Quote } from '@shared/schemas/discounts';
import type { GiftRequest } from '@shared/schemas/gifts';
import type { CheckoutResponse, PaymentResult, PaymentSession, StoreFormatsResponse } from '@shared/schemas/checkout';
import { apiRequest } from '@client/lib/api-client';

export const STORE_FORMATS_KEY = ['/api/store/formats'] as const;
export const FEATURED_BOOK_PATH = '/api/books/featured';

export function useStoreFormats() {
  return useQuery<StoreFormatsResponse>({ queryKey: STORE_FORMATS_KEY });
}

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

/** Server prices by format, for resuming a purchase outside the purchase section. */
export async function fetchFormatPrices(): Promise<Record<string, number>> {
  const res = await apiRequest('GET', STORE_FORMATS_KEY[0]);
  const data = (await res.json()) as StoreFormatsResponse;
  return Object.fromEntries(data.formats.map((f) => [f.id, f.price]));
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

/** What a format costs with a discount code; refusals arrive as errors with the reader's message. */
export async function fetchQuote(bookId: number, format: string, discountCode: string): Promise<Quote> {
  const query = new URLSearchParams({ bookId: String(bookId), format, discountCode });
  const res = await apiRequest('GET', `/api/checkout/quote?${query.toString()}`);
  return (await res.json()) as Quote;
}

export const paymentSessionKey = (sessionId: string) => ['/api/checkout/sessions', sessionId] as const;

export function usePaymentSession(sessionId: string, options: { poll?: boolean } = {}) {
  return useQuery<PaymentSession>({
    queryKey: paymentSessionKey(sessionId),
    // A physical order's confirmation waits for the provider's event; poll until it is recorded.
    refetchInterval: (query) => (options.poll && query.state.data?.status === 'open' ? 2000 : false),
  });
}

export async function payLocalSession(sessionId: string): Promise<PaymentResult> {
  const res = await apiRequest('POST', `/api/checkout/sessions/${encodeURIComponent(sessionId)}/pay`);
  return (await res.json()) as PaymentResult;
}

export async function cancelLocalSession(sessionId: string): Promise<PaymentResult> {
  const res = await apiRequest('POST', `/api/checkout/sessions/${encodeURIComponent(sessionId)}/cancel`);
  return (await res.json()) as PaymentResult;
}
