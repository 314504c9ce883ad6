/** /admin/subscribers: the Thriller Circle list, each address with its state and source (decision 0069), and a spreadsheet-safe CSV export. */
import { useState } from 'react';
import { Download } from 'lucide-react';
import { SUBSCRIBER_SOURCE_LABELS, SUBSCRIBER_STATE_LABELS } from '@shared/subscribers';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { countOf } from '@client/lib/plural';
import { downloadSubscribersCsv, useSubscribers } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { ListSearch, ShowMore } from '@client/features/admin/components/list-paging';
import { formatShortDate } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';

export default function AdminSubscribersPage() {
  const [q, setQ] = useState('');
  const subscribers = useSubscribers(q);
  const [exporting, setExporting] = useState(false);
  const first = subscribers.data?.pages[0];
  const rows = subscribers.data?.pages.flatMap((p) => p.items) ?? [];
  const active = first?.active ?? 0;
  const unconfirmed = first?.unconfirmed ?? 0;

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
        first ? (
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
      <ListSearch id="subscribers-q" label="Search email or name" onSearch={setQ} />
      <QueryState query={subscribers}>
        {() =>
          rows.length === 0 ? (
            <EmptyState>{q ? 'No subscriber matches this search.' : 'No subscribers yet.'}</EmptyState>
          ) : (
            <>
            <DataTable columns={['Email', 'Name', 'Subscribed', 'State', 'Source']}>
              {rows.map((s) => (
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
            <ShowMore pages={subscribers} />
            </>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
