/** Admin "Free book" (decision 0097): list with figures, create, change, remove. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminFreeBook, FreeBookInput } from '@shared/schemas/free-books';
import { apiRequest } from '@client/lib/api-client';

export const FREE_BOOKS_PATH = '/api/admin/free-books';

export const useAdminFreeBooks = () => useQuery<AdminFreeBook[]>({ queryKey: [FREE_BOOKS_PATH], staleTime: 0 });

export function useSaveFreeBook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: FreeBookInput }) => {
      const res = await apiRequest(id === null ? 'POST' : 'PUT', id === null ? FREE_BOOKS_PATH : `${FREE_BOOKS_PATH}/${id}`, input);
      return (await res.json()) as AdminFreeBook;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [FREE_BOOKS_PATH] }),
  });
}

export function useDeleteFreeBook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `${FREE_BOOKS_PATH}/${id}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [FREE_BOOKS_PATH] }),
  });
}

/** The body that saves a free book as it is, with only `active` changed. */
export const withActive = (g: AdminFreeBook, active: boolean): FreeBookInput => ({ bookId: g.bookId, format: g.format, slug: g.slug, pitch: g.pitch, active });
