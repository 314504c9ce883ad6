/** Review copies (decision 0099): the campaign page, applying, and the reader's own copies and review links. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminApplication, AdminCampaign, ApplicationAnswer, ApplicationRequest, CampaignInput, MyReviewCopy, PublicCampaign } from '@shared/schemas/review-copies';
import { apiRequest } from '@client/lib/api-client';

export const campaignKey = (slug: string) => [`/api/review-copies/${slug}`] as const;
export const MY_REVIEW_COPIES_KEY = ['/api/review-copies/mine'] as const;

export function useCampaign(slug: string) {
  return useQuery({
    queryKey: campaignKey(slug),
    queryFn: async ({ signal }) => (await (await apiRequest('GET', campaignKey(slug)[0], undefined, { signal })).json()) as PublicCampaign,
    retry: false,
  });
}

export function useMyReviewCopies(enabled: boolean) {
  return useQuery({
    queryKey: MY_REVIEW_COPIES_KEY,
    queryFn: async ({ signal }) => (await (await apiRequest('GET', MY_REVIEW_COPIES_KEY[0], undefined, { signal })).json()) as MyReviewCopy[],
    enabled,
    staleTime: 0,
  });
}

export async function applyForCopy(slug: string, body: ApplicationRequest): Promise<ApplicationAnswer> {
  return (await (await apiRequest('POST', `/api/review-copies/${slug}/apply`, body)).json()) as ApplicationAnswer;
}

export async function postReviewLink(applicationId: number, url: string): Promise<MyReviewCopy[]> {
  return (await (await apiRequest('POST', `/api/review-copies/applications/${applicationId}/links`, { url })).json()) as MyReviewCopy[];
}

export const ADMIN_CAMPAIGNS_KEY = ['/api/admin/review-copies'] as const;
export const applicationsKey = (id: number) => [`/api/admin/review-copies/${id}/applications`] as const;

export function useAdminCampaigns() {
  return useQuery({
    queryKey: ADMIN_CAMPAIGNS_KEY,
    queryFn: async ({ signal }) => (await (await apiRequest('GET', ADMIN_CAMPAIGNS_KEY[0], undefined, { signal })).json()) as AdminCampaign[],
    staleTime: 0,
  });
}

export function useApplications(campaignId: number | null) {
  return useQuery({
    queryKey: applicationsKey(campaignId ?? 0),
    queryFn: async ({ signal }) => (await (await apiRequest('GET', applicationsKey(campaignId!)[0], undefined, { signal })).json()) as AdminApplication[],
    enabled: campaignId !== null,
    staleTime: 0,
  });
}

/** The author's actions on a campaign: decide (one or many), remind now, withdraw unread copies. */
export async function campaignAction<T>(campaignId: number, action: 'decide' | 'remind' | 'withdraw', body?: unknown): Promise<T> {
  return (await (await apiRequest('POST', `/api/admin/review-copies/${campaignId}/${action}`, body)).json()) as T;
}

/** Creates a campaign (id null) or edits one; the answer is the campaign list, refreshed in the cache. */
export function useSaveCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: CampaignInput }) =>
      (await (await apiRequest(id === null ? 'POST' : 'PUT', id === null ? ADMIN_CAMPAIGNS_KEY[0] : `${ADMIN_CAMPAIGNS_KEY[0]}/${id}`, input)).json()) as AdminCampaign[],
    onSuccess: (list) => client.setQueryData(ADMIN_CAMPAIGNS_KEY, list),
  });
}
