/**
 * "Need another download?" on the admin side (issue 25 point 4): readers asking for another download of a
 * format, each granted in one click (the allowance comes back and the reader is mailed).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, MailQuestion } from 'lucide-react';
import { formatLabel } from '@shared/constants';
import type { AdminDownloadRequest } from '@shared/schemas/download-requests';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { apiRequest } from '@client/lib/api-client';
import { errorText } from '@client/lib/api-errors';
import { formatDateTime } from '@client/lib/format';

const REQUESTS_KEY = ['/api/admin/download-requests'] as const;

function useDownloadRequests() {
  return useQuery({
    queryKey: REQUESTS_KEY,
    queryFn: async ({ signal }) => {
      const res = await apiRequest('GET', REQUESTS_KEY[0], undefined, { signal });
      return ((await res.json()) as { requests: AdminDownloadRequest[] }).requests;
    },
    staleTime: 0,
  });
}

function useGrant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await (await apiRequest('POST', `/api/admin/download-requests/${id}/grant`)).json()) as AdminDownloadRequest,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: REQUESTS_KEY });
      // The order's download count changes with the grant.
      void client.invalidateQueries({ queryKey: ['/api/admin/orders'] });
    },
  });
}

export function DownloadRequests() {
  const requests = useDownloadRequests();
  const grant = useGrant();
  const all = requests.data ?? [];
  if (all.length === 0) return null;
  const pending = all.filter((r) => r.status === 'pending');
  const granted = all.filter((r) => r.status === 'granted');

  const run = async (request: AdminDownloadRequest) => {
    try {
      await grant.mutateAsync(request.id);
      toast({ title: 'Download granted', description: `${request.reader.name} can download the ${formatLabel(request.format)} once more and has been told by email.` });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <section aria-labelledby="download-requests-title" className="mb-8 rounded-xl border border-ink-700 bg-ink-900/80 p-5 shadow-xl shadow-black/30 sm:p-6">
      <h2 id="download-requests-title" className="flex items-center gap-2 font-display text-xl font-semibold text-bone-50">
        <MailQuestion aria-hidden="true" className="size-5 text-blood-400" /> Download requests
        {pending.length > 0 ? (
          <span className="rounded-full bg-blood-600 px-2 py-0.5 font-sans text-xs font-semibold text-bone-50">{pending.length} waiting</span>
        ) : null}
      </h2>
      <p className="mt-1 text-sm text-bone-300">Readers who used their one download and ask for another. Granting gives it back and emails them.</p>
      {pending.length === 0 ? <p className="mt-4 text-sm text-bone-300">No requests waiting.</p> : null}
      <ul className="mt-4 grid gap-3">
        {pending.map((r) => (
          <li key={r.id} data-testid={`download-request-${r.id}`} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-ink-600 bg-ink-950/60 px-4 py-3">
            <span className="min-w-0">
              <span className="block font-medium text-bone-50">
                {r.reader.name} · {formatLabel(r.format)} of {r.book.title}
              </span>
              <span className="block text-xs break-all text-bone-400">
                {r.reader.email} · order {r.orderReference} · asked {formatDateTime(r.requestedAt)}
              </span>
            </span>
            <Button size="sm" disabled={grant.isPending} onClick={() => void run(r)} aria-label={`Grant ${r.reader.name} another download of the ${formatLabel(r.format)}`}>
              <Check aria-hidden="true" /> Grant another download
            </Button>
          </li>
        ))}
        {granted.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-1 text-sm text-bone-400">
            <span>
              {r.reader.name} · {formatLabel(r.format)} of {r.book.title}
            </span>
            <span>Granted {r.grantedAt ? formatDateTime(r.grantedAt) : ''}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
