/** /admin/subscribers: the Thriller Circle list, each address with its state and source (decision 0069), and a spreadsheet-safe CSV export. */
import { useState } from 'react';
import { SUBSCRIBER_SOURCE_LABELS, SUBSCRIBER_STATE_LABELS } from '@shared/subscribers';
import { countOf } from '@client/lib/plural';
import { useSubscribers } from '@client/features/admin/api';
import { ExportCsvButton } from '@client/features/admin/components/export-csv-button';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { ListSearch, ShowMore } from '@client/features/admin/components/list-paging';
import { formatShortDate } from '@client/lib/format';

export default function AdminSubscribersPage() {
  const [q, setQ] = useState('');
  const subscribers = useSubscribers(q);
  const first = subscribers.data?.pages[0];
  const rows = subscribers.data?.pages.flatMap((p) => p.items) ?? [];
  const active = first?.active ?? 0;
  const unconfirmed = first?.unconfirmed ?? 0;

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
      actions={<ExportCsvButton url="/api/admin/subscribers.csv" />}
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
