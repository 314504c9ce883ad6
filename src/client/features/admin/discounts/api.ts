/** Discount codes for the admin page: list, create and edit (issue 15). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Discount, DiscountInput } from '@shared/schemas/discounts';
import { apiRequest } from '@client/lib/api-client';

export const DISCOUNTS_PATH = '/api/admin/discounts';

export const useDiscounts = () => useQuery<Discount[]>({ queryKey: [DISCOUNTS_PATH], staleTime: 0 });

export function useSaveDiscount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: DiscountInput }) => {
      const res = await apiRequest(id === null ? 'POST' : 'PUT', id === null ? DISCOUNTS_PATH : `${DISCOUNTS_PATH}/${id}`, input);
      return (await res.json()) as Discount;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [DISCOUNTS_PATH] }),
  });
}
