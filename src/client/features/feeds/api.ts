/** The reader's private feeds: the audiobook's podcast address (decision 0086) and the OPDS catalogue (0087). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeedLink, OpdsEnabled, OpdsState } from '@shared/schemas/feeds';
import { apiFetch } from '@client/lib/api-client';

/** The server's own message for a refusal, or a plain fallback. */
async function refusal(res: Response, fallback: string): Promise<Error> {
  const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
  return new Error(typeof body?.message === 'string' && body.message ? body.message : fallback);
}

export async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const res = await apiFetch(method, url, body);
  if (!res.ok) throw await refusal(res, 'Something went wrong. Please try again.');
  return (await res.json()) as T;
}

const feedLinkUrl = (bookId: number) => `/api/library/${bookId}/audiobook/feed-link`;

export function useFeedLink(bookId: number, enabled: boolean) {
  return useQuery({
    queryKey: [feedLinkUrl(bookId)],
    queryFn: () => call<FeedLink>('GET', feedLinkUrl(bookId)),
    enabled,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function useRegenerateFeedLink(bookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call<FeedLink>('POST', `${feedLinkUrl(bookId)}/regenerate`),
    onSuccess: (answer) => client.setQueryData([feedLinkUrl(bookId)], answer),
  });
}

export const OPDS_KEY = ['/api/library/opds'] as const;

export function useOpdsState(enabled: boolean) {
  return useQuery({ queryKey: OPDS_KEY, queryFn: () => call<OpdsState>('GET', OPDS_KEY[0]), enabled, refetchOnWindowFocus: false });
}

/** Turning on, regenerating and turning off; the answer that carries the app password is kept for display. */
export function useOpdsActions() {
  const client = useQueryClient();
  const keep = (answer: OpdsState) => client.setQueryData(OPDS_KEY, { ...answer, message: undefined, password: undefined });
  return {
    enable: useMutation({ mutationFn: () => call<OpdsEnabled>('POST', OPDS_KEY[0]), onSuccess: keep }),
    regenerate: useMutation({ mutationFn: () => call<OpdsEnabled>('POST', `${OPDS_KEY[0]}/regenerate`), onSuccess: keep }),
    disable: useMutation({ mutationFn: () => call<OpdsState>('DELETE', OPDS_KEY[0]), onSuccess: keep }),
  };
}
