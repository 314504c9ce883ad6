/** The author's statistics: GET /api/dashboard/stats and the sales series behind the chart. */
import { useQuery } from '@tanstack/react-query';
import type { DashboardStats, SalesRange, SalesSeries } from '@shared/schemas/dashboard';
import type { ReadThrough } from '@shared/schemas/read-through';
import { apiRequest } from '@client/lib/api-client';

export const STATS_PATH = '/api/dashboard/stats';

export function useDashboardStats() {
  // Statistics are a snapshot the author asks for: fetched on each visit, not cached forever.
  return useQuery<DashboardStats>({ queryKey: [STATS_PATH], staleTime: 0, gcTime: 0 });
}

export function useSalesSeries(range: SalesRange) {
  return useQuery({
    queryKey: ['/api/dashboard/sales', { range }],
    queryFn: async ({ signal }) => {
      const res = await apiRequest('GET', `/api/dashboard/sales?range=${range}`, undefined, { signal });
      return (await res.json()) as SalesSeries;
    },
    staleTime: 0,
  });
}

/** The featured book's read-through chart (decision 0089): aggregated, small buckets withheld by the server. */
export function useReadThrough() {
  return useQuery({
    queryKey: ['dashboard-read-through'],
    queryFn: async ({ signal }) => {
      const featured = await apiRequest('GET', '/api/books/featured', undefined, { signal });
      const { id } = (await featured.json()) as { id: number };
      const res = await apiRequest('GET', `/api/admin/books/${id}/read-through`, undefined, { signal });
      return (await res.json()) as ReadThrough;
    },
    staleTime: 0,
  });
}
