/** Gift reads and calls: the claim page, claiming, and the buyer's resend. */
import { useQuery } from '@tanstack/react-query';
import type { GiftClaimResult, GiftView } from '@shared/schemas/gifts';
import { apiFetch, apiRequest } from '@client/lib/api-client';

export const giftKey = (token: string) => ['/api/gifts', token] as const;

/** The gift behind a link; a bad or replaced link is an Error with the server's message. */
export function useGift(token: string) {
  return useQuery<GiftView>({
    queryKey: giftKey(token),
    queryFn: async () => {
      const res = await apiFetch('GET', `/api/gifts/${encodeURIComponent(token)}`);
      const body = (await res.json().catch(() => null)) as (GiftView & { message?: string }) | null;
      if (!res.ok) throw new Error(body?.message ?? 'This gift link is not valid.');
      return body as GiftView;
    },
    retry: false,
  });
}

export async function claimGift(token: string): Promise<GiftClaimResult> {
  const res = await apiRequest('POST', `/api/gifts/${encodeURIComponent(token)}/claim`);
  return (await res.json()) as GiftClaimResult;
}

export async function resendGift(giftId: number): Promise<{ message: string }> {
  const res = await apiRequest('POST', `/api/orders/gifts/${giftId}/resend`);
  return (await res.json()) as { message: string };
}
