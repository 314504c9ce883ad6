/** A free book for subscribers (decision 0097): the landing page's data, the claim and the confirmation. */
import { useQuery } from '@tanstack/react-query';
import type { FreeBookConfirmAnswer, FreeBookPage } from '@shared/schemas/free-books';
import { FREE_BOOK_SOURCE_PATTERN } from '@shared/schemas/free-books';
import { apiRequest } from '@client/lib/api-client';
import { ApiError } from '@client/lib/api-errors';

export const freeBookKey = (slug: string) => ['/api/free-books', slug] as const;

export const useFreeBookPage = (slug: string) =>
  useQuery<FreeBookPage>({ queryKey: freeBookKey(slug), queryFn: async () => (await apiRequest('GET', `/api/free-books/${encodeURIComponent(slug)}`)).json() as Promise<FreeBookPage>, enabled: slug !== '' });

/** The offer is gone (unknown slug, switched off or removed): the page says so instead of an error. */
export const isNotOffered = (error: unknown) => error instanceof ApiError && error.status === 404;

/** `?source=` as the server records it; anything it would refuse is left out, so a mangled link still works. */
export function sourceOf(params: URLSearchParams): string | undefined {
  const value = params.get('source')?.trim();
  return value && FREE_BOOK_SOURCE_PATTERN.test(value) ? value : undefined;
}

export async function claimFreeBook(slug: string, body: { email: string; source?: string }): Promise<string> {
  const res = await apiRequest('POST', `/api/free-books/${encodeURIComponent(slug)}/claim`, body);
  return ((await res.json()) as { message: string }).message;
}

export async function confirmFreeBook(token: string): Promise<FreeBookConfirmAnswer> {
  const res = await apiRequest('POST', '/api/free-books/confirm', { token });
  return (await res.json()) as FreeBookConfirmAnswer;
}
