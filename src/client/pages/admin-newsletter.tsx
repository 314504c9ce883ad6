/** /admin/newsletter: the broadcasts sent to the Thriller Circle, and the addresses no broadcast will reach (decision 0077). */
import { Plus } from 'lucide-react';
import { AUDIENCE_LABELS } from '@shared/schemas/broadcasts';
import { SUBSCRIBER_STATE_LABELS } from '@shared/subscribers';
import { Link } from '@client/lib/router';
import { buttonClasses } from '@client/components/ui/button';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { useBroadcasts, useSuppressions } from '@client/features/admin/newsletter/api';
import { BROADCAST_STATUS_LABELS } from '@client/features/admin/newsletter/labels';
import { formatDateTime, formatShortDate } from '@client/lib/format';
import { countOf } from '@client/lib/plural';

export default function AdminNewsletterPage() {
  const broadcasts = useBroadcasts();
  const suppressions = useSuppressions();
  return (
    <AdminFrame
      title="Newsletter"
      intro={<p>Write to the confirmed members of the Thriller Circle, or to a part of them.</p>}
      actions={
        <Link to="/admin/newsletter/new" className={buttonClasses('primary', 'sm')}>
          <Plus aria-hidden="true" />
          New broadcast
        </Link>
      }
    >
      <QueryState query={broadcasts}>
        {() =>
          broadcasts.data!.length === 0 ? (
            <EmptyState>No broadcasts yet.</EmptyState>
          ) : (
            <DataTable columns={['Subject', 'Audience', 'Status', 'When']}>
              {broadcasts.data!.map((b) => (
                <tr key={b.id} className={t.row}>
                  <td className={t.td}>
                    <Link to={`/admin/newsletter/${b.id}`} className="text-blood-300 underline-offset-4 hover:underline">
                      {b.subject}
                    </Link>
                  </td>
                  <td className={t.td}>{AUDIENCE_LABELS[b.audience.kind]}</td>
                  <td className={t.td}>{BROADCAST_STATUS_LABELS[b.status]}</td>
                  <td className={t.td}>{b.finishedAt ? formatDateTime(b.finishedAt) : b.sendAt ? formatDateTime(b.sendAt) : '—'}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
      <section aria-labelledby="suppressions-title" className="mt-10 grid gap-3">
        <h2 id="suppressions-title" className="font-display text-xl text-bone-50">
          Suppression list
        </h2>
        <p className="text-sm text-bone-300">
          Addresses that unsubscribed, bounced (the mail server refused them for good) or complained. No broadcast is ever sent to
          them.
        </p>
        <QueryState query={suppressions}>
          {() =>
            suppressions.data!.total === 0 ? (
              <EmptyState>Nobody is suppressed.</EmptyState>
            ) : (
              <>
                <p className="text-sm text-bone-300">{countOf(suppressions.data!.total, 'address', 'addresses')}</p>
                <DataTable columns={['Email', 'Why', 'Since']}>
                  {suppressions.data!.items.map((s) => (
                    <tr key={s.email} className={t.row}>
                      <td className={t.td}>{s.email}</td>
                      <td className={t.td}>{SUBSCRIBER_STATE_LABELS[s.state]}</td>
                      <td className={t.td}>{s.since ? formatShortDate(s.since) : '—'}</td>
                    </tr>
                  ))}
                </DataTable>
              </>
            )
          }
        </QueryState>
      </section>
    </AdminFrame>
  );
}
