/** Store reads and calls for the purchase flow (formats with server prices, checkout, payment page). */
import { useQuery } from '@tanstack/react-query';
import type { Quote } from '@shared/schemas/discounts';
import type { MyFormatsResponse, PaymentResult, PaymentSession, ShippingAddress, StoreFormatsResponse } from '@shared/schemas/checkout';
import { apiRequest } from '@client/lib/api-client';

export { createCheckout, FEATURED_BOOK_PATH, fetchFeaturedBook } from '@client/lib/checkout';

export const STORE_FORMATS_KEY = ['/api/store/formats'] as const;

/** The featured book's formats (the home page), or those of the catalogue's book with this slug. */
export function useStoreFormats(slug?: string) {
  return useQuery<StoreFormatsResponse>({ queryKey: slug ? ['/api/catalogue', slug, 'formats'] : STORE_FORMATS_KEY });
}

export const MY_FORMATS_KEY = ['/api/store/my-formats'] as const;

/** The signed-in reader's formats: owned ("In your library") and bought a moment ago. */
export function useMyFormats(enabled: boolean) {
  return useQuery<MyFormatsResponse>({ queryKey: MY_FORMATS_KEY, enabled, refetchOnMount: 'always' });
}

/** Server prices by format, for resuming a purchase outside the purchase section. */
export async function fetchFormatPrices(): Promise<Record<string, number>> {
  const res = await apiRequest('GET', STORE_FORMATS_KEY[0]);
  const data = (await res.json()) as StoreFormatsResponse;
  return Object.fromEntries(data.formats.map((f) => [f.id, f.price]));
}

/** A catalogue book's formats with their server prices, for resuming a purchase begun on its page. */
export async function fetchBookFormats(slug: string): Promise<StoreFormatsResponse> {
  const res = await apiRequest('GET', `/api/catalogue/${encodeURIComponent(slug)}/formats`);
  return (await res.json()) as StoreFormatsResponse;
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

export async function payLocalSession(sessionId: string, shippingAddress?: ShippingAddress): Promise<PaymentResult> {
  const res = await apiRequest('POST', `/api/checkout/sessions/${encodeURIComponent(sessionId)}/pay`, shippingAddress ? { shippingAddress } : undefined);
  return (await res.json()) as PaymentResult;
}

export async function cancelLocalSession(sessionId: string): Promise<PaymentResult> {
  const res = await apiRequest('POST', `/api/checkout/sessions/${encodeURIComponent(sessionId)}/cancel`);
  return (await res.json()) as PaymentResult;
}
