/** The admin's Newsletter: broadcasts, their audience's size, the preview, and the suppression list (decision 0077). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Audience, Broadcast, BroadcastInput, BroadcastSummary, Suppression } from '@shared/schemas/broadcasts';
import { apiRequest } from '@client/lib/api-client';

export const BROADCASTS_PATH = '/api/admin/broadcasts';

export const useBroadcasts = () => useQuery<BroadcastSummary[]>({ queryKey: [BROADCASTS_PATH], staleTime: 0 });

/** A broadcast; refreshed every two seconds while it is sending, for the progress bar. */
export const useBroadcast = (id: number | null) =>
  useQuery<Broadcast>({
    queryKey: [`${BROADCASTS_PATH}/${id}`],
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'sending' ? 2000 : false),
  });

export const useSuppressions = () =>
  useQuery<{ total: number; items: Suppression[] }>({ queryKey: ['/api/admin/suppressions'], staleTime: 0 });

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await apiRequest('POST', path, body);
  return (await res.json()) as T;
}

export const fetchAudienceSize = (audience: Audience) =>
  post<{ audienceSize: number }>(`${BROADCASTS_PATH}/audience-size`, { audience }).then((r) => r.audienceSize);

export const fetchPreview = (content: Pick<BroadcastInput, 'subject' | 'previewText' | 'body'>) =>
  post<{ html: string; text: string }>(`${BROADCASTS_PATH}/preview`, content);

/** Save (create or edit), send a test, send (now or at a time) and cancel; each refreshes the lists. */
export function useBroadcastActions(id: number | null) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [BROADCASTS_PATH] });
  const after = (saved: Broadcast) => {
    client.setQueryData([`${BROADCASTS_PATH}/${saved.id}`], saved);
    void refresh();
    return saved;
  };
  return {
    save: useMutation({
      mutationFn: async (input: BroadcastInput) => {
        const res = await apiRequest(id === null ? 'POST' : 'PUT', id === null ? BROADCASTS_PATH : `${BROADCASTS_PATH}/${id}`, input);
        return after((await res.json()) as Broadcast);
      },
    }),
    test: useMutation({ mutationFn: () => post<{ message: string }>(`${BROADCASTS_PATH}/${id}/test`, {}) }),
    send: useMutation({
      mutationFn: async (sendAt?: string) => after(await post<Broadcast>(`${BROADCASTS_PATH}/${id}/send`, sendAt ? { sendAt } : {})),
    }),
    cancel: useMutation({ mutationFn: async () => after(await post<Broadcast>(`${BROADCASTS_PATH}/${id}/cancel`, {})) }),
  };
}
