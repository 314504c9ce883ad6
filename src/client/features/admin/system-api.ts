/** The admin System page's data: GET /api/admin/system, and "Retry" for failed mail. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailRetryResponse, SystemStatus } from '@shared/schemas/system';
import { apiRequest } from '@client/lib/api-client';

export const SYSTEM_PATH = '/api/admin/system';

export function useSystemStatus() {
  // Health is a live reading: fetched on each visit and refreshed every 30 seconds while open.
  return useQuery<SystemStatus>({ queryKey: [SYSTEM_PATH], staleTime: 0, gcTime: 0, refetchInterval: 30_000 });
}

export function useRetryFailedMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await (await apiRequest('POST', `${SYSTEM_PATH}/mail/retry`)).json()) as MailRetryResponse,
    onSuccess: () => client.invalidateQueries({ queryKey: [SYSTEM_PATH] }),
  });
}
