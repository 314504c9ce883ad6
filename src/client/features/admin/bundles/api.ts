/** Bundles for the admin Bundles page (decision 0083): list, create, change; a bundle is switched off, never deleted. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminBundle, BundleInput } from '@shared/schemas/bundles';
import { apiRequest } from '@client/lib/api-client';

export const BUNDLES_PATH = '/api/admin/bundles';

export const useAdminBundles = () => useQuery<AdminBundle[]>({ queryKey: [BUNDLES_PATH], staleTime: 0 });

export function useSaveBundle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: BundleInput }) => {
      const res = await apiRequest(id === null ? 'POST' : 'PUT', id === null ? BUNDLES_PATH : `${BUNDLES_PATH}/${id}`, input);
      return (await res.json()) as AdminBundle;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [BUNDLES_PATH] }),
  });
}

/** The body that saves a bundle as it is, with only `active` changed. */
export const withActive = (b: AdminBundle, active: boolean): BundleInput => ({
  name: b.name,
  items: b.items.map((i) => ({ bookId: i.bookId, format: i.format })),
  price: b.price,
  active,
});
