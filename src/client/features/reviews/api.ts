/** Verified reviews: the reader's own review of a book, the end-of-book question, and the author's moderation. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminReview, MyReview, MyReviewAnswer, ReviewRequest, ReviewStatus } from '@shared/schemas/reviews';
import { apiRequest } from '@client/lib/api-client';

export const myReviewKey = (bookId: number) => [`/api/books/${bookId}/my-review`] as const;
export const ADMIN_REVIEWS_KEY = '/api/admin/reviews';

async function send<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await apiRequest(method, url, body, { signal });
  return (await res.json()) as T;
}

export function useMyReview(bookId: number | null) {
  return useQuery({
    queryKey: myReviewKey(bookId ?? 0),
    queryFn: ({ signal }) => send<MyReviewAnswer>('GET', myReviewKey(bookId!)[0], undefined, signal),
    enabled: bookId !== null,
    staleTime: 0,
    retry: false,
  });
}

/** Post the first review (POST) or save an edit (PUT). */
export function useSaveReview(bookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, edit }: { input: ReviewRequest; edit: boolean }) =>
      send<MyReview>(edit ? 'PUT' : 'POST', myReviewKey(bookId)[0], input),
    onSuccess: () => client.invalidateQueries({ queryKey: myReviewKey(bookId) }),
  });
}

export function useDismissReviewPrompt(bookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => send<{ success: boolean }>('POST', `/api/books/${bookId}/review-prompt/dismiss`),
    onSuccess: () => client.invalidateQueries({ queryKey: myReviewKey(bookId) }),
  });
}

export function useAdminReviews(status: ReviewStatus | 'all') {
  return useQuery({
    queryKey: [ADMIN_REVIEWS_KEY, status],
    queryFn: ({ signal }) => send<AdminReview[]>('GET', status === 'all' ? ADMIN_REVIEWS_KEY : `${ADMIN_REVIEWS_KEY}?status=${status}`, undefined, signal),
    staleTime: 0,
  });
}

export function useModerateReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: { id: number; kind: 'approve' | 'hide' } | { id: number; kind: 'answer'; answer: string }) =>
      action.kind === 'answer'
        ? send<AdminReview>('PUT', `${ADMIN_REVIEWS_KEY}/${action.id}/answer`, { answer: action.answer })
        : send<AdminReview>('POST', `${ADMIN_REVIEWS_KEY}/${action.id}/${action.kind}`),
    onSuccess: () => client.invalidateQueries({ queryKey: [ADMIN_REVIEWS_KEY] }),
  });
}
