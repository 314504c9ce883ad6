/** Send to Kindle (the reader's device addresses and sends) and Trace a Copy (admin). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KindleDevicesAnswer, KindleSend, SendToKindleAnswer, TraceResult } from '@shared/schemas/copies';
import { apiFetch, getAuthToken, getCsrfToken } from '@client/lib/api-client';

export const KINDLE_KEY = ['/api/library/kindle'] as const;

/** The server's own message for a refusal, or a plain fallback. */
async function refusal(res: Response, fallback: string): Promise<Error> {
  const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
  return new Error(typeof body?.message === 'string' && body.message ? body.message : fallback);
}

async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const res = await apiFetch(method, url, body);
  if (!res.ok) throw await refusal(res, 'Something went wrong. Please try again.');
  return (await res.json()) as T;
}

export function useKindleSettings(enabled: boolean) {
  return useQuery({
    queryKey: KINDLE_KEY,
    queryFn: () => call<KindleDevicesAnswer>('GET', KINDLE_KEY[0]),
    enabled,
    refetchOnWindowFocus: false,
  });
}

export function useKindleActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: KINDLE_KEY });
  return {
    add: useMutation({ mutationFn: (address: string) => call('POST', '/api/library/kindle/devices', { address }), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: number) => call('DELETE', `/api/library/kindle/devices/${id}`), onSuccess: refresh }),
    send: useMutation({
      mutationFn: ({ bookId, address }: { bookId: number; address: string }) =>
        call<SendToKindleAnswer>('POST', `/api/library/${bookId}/ebook/send-to-kindle`, { address }),
      onSettled: refresh,
    }),
  };
}

/** Uploads a file to trace (multipart; the JSON client cannot send it). Null when the file is not ours. */
export async function traceFile(file: File): Promise<{ found: TraceResult } | { notFound: string }> {
  const body = new FormData();
  body.append('file', file, file.name);
  const headers = new Headers();
  const token = getAuthToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  headers.set('X-CSRF-Token', await getCsrfToken());
  const res = await fetch('/api/admin/trace', { method: 'POST', body, headers, credentials: 'include' });
  if (res.status === 404) return { notFound: (await refusal(res, 'No copy made by this site was found in this file.')).message };
  if (!res.ok) throw await refusal(res, 'The file could not be traced. Please try again.');
  return { found: (await res.json()) as TraceResult };
}

export function useOrderKindleSends(orderId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/admin/orders', orderId, 'kindle-sends'],
    queryFn: () => call<KindleSend[]>('GET', `/api/admin/orders/${orderId}/kindle-sends`),
    enabled,
  });
}
