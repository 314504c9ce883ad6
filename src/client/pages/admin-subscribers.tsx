/** /admin/subscribers: the Thriller Circle list, each address with its state and source (decision 0069), and a spreadsheet-safe CSV export. */
import { useState } from 'react';
import { Download } from 'lucide-react';
import { SUBSCRIBER_SOURCE_LABELS, SUBSCRIBER_STATE_LABELS } from '@shared/subscribers';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { countOf } from '@client/lib/plural';
import { downloadSubscribersCsv, useSubscribers } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { formatShortDate } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';

export default function AdminSubscribersPage() {
  const subscribers = useSubscribers();
  const [exporting, setExporting] = useState(false);
  const active = subscribers.data?.filter((s) => !s.unsubscribedAt).length ?? 0;
  const unconfirmed = subscribers.data?.filter((s) => s.state === 'unconfirmed').length ?? 0;

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadSubscribersCsv();
    } catch (error) {
      toast({ title: 'Export failed', description: errorText(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <AdminFrame
      title="Subscribers"
      intro={
        subscribers.data ? (
          <p>
            {countOf(active, 'active subscriber')} to the Thriller Circle.
            {unconfirmed > 0 ? ` ${countOf(unconfirmed, 'has', 'have')} not confirmed yet.` : null}
          </p>
        ) : undefined
      }
      actions={
        <Button size="sm" onClick={exportCsv} disabled={exporting}>
          <Download aria-hidden="true" />
          {exporting ? 'Exporting...' : 'Export CSV'}
        </Button>
      }
    >
      <QueryState query={subscribers}>
        {() =>
          subscribers.data!.length === 0 ? (
            <EmptyState>No subscribers yet.</EmptyState>
          ) : (
            <DataTable columns={['Email', 'Name', 'Subscribed', 'State', 'Source']}>
              {subscribers.data!.map((s) => (
                <tr key={s.id} className={t.row}>
                  <td className={t.td}>{s.email}</td>
                  <td className={t.td}>{s.name || '—'}</td>
                  <td className={t.td}>{formatShortDate(s.subscribedAt)}</td>
                  <td className={t.td}>
                    {SUBSCRIBER_STATE_LABELS[s.state]}
                    {s.state === 'unsubscribed' && s.unsubscribedAt ? ` ${formatShortDate(s.unsubscribedAt)}` : null}
                  </td>
                  <td className={t.td}>{SUBSCRIBER_SOURCE_LABELS[s.source]}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
