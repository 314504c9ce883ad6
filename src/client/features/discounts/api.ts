/** Discount codes for the admin page: list, create and edit (issue 15). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Discount, DiscountInput, DiscountPage } from '@shared/schemas/discounts';
import { apiRequest } from '@client/lib/api-client';
import { useKeysetPages } from '@client/lib/keyset-pages';

export const DISCOUNTS_PATH = '/api/admin/discounts';

export const useDiscounts = () => useKeysetPages<DiscountPage>(DISCOUNTS_PATH);

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
