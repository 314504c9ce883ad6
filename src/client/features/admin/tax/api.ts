/** Tax setting, rate table and report for the admin Tax page (decision 0080). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaxReport, TaxSettings } from '@shared/schemas/tax';
import { apiRequest } from '@client/lib/api-client';

export const TAX_PATH = '/api/admin/tax';
export const TAX_REPORT_PATH = '/api/admin/tax/report';
export const TAX_REPORT_CSV_PATH = '/api/admin/tax/report.csv';

export const useTaxSettings = () => useQuery<TaxSettings>({ queryKey: [TAX_PATH], staleTime: 0 });
export const useTaxReport = () => useQuery<TaxReport>({ queryKey: [TAX_REPORT_PATH], staleTime: 0 });

export function useSaveTaxSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: TaxSettings) => (await (await apiRequest('PUT', TAX_PATH, input)).json()) as TaxSettings,
    onSuccess: (saved) => client.setQueryData([TAX_PATH], saved),
  });
}
