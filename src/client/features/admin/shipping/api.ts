/** Shipping zones for the admin Shipping page (decision 0081): list, create, edit, delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShippingZone, ShippingZoneInput } from '@shared/schemas/shipping';
import { apiRequest } from '@client/lib/api-client';

export const ZONES_PATH = '/api/admin/shipping-zones';

export const useShippingZones = () => useQuery<ShippingZone[]>({ queryKey: [ZONES_PATH], staleTime: 0 });

export function useSaveZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: ShippingZoneInput }) => {
      const res = await apiRequest(id === null ? 'POST' : 'PUT', id === null ? ZONES_PATH : `${ZONES_PATH}/${id}`, input);
      return (await res.json()) as ShippingZone;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [ZONES_PATH] }),
  });
}

export function useDeleteZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `${ZONES_PATH}/${id}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [ZONES_PATH] }),
  });
}
