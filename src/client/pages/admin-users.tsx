/** /admin/users: accounts with their roles. */
import { useState } from 'react';
import { Badge } from '@client/components/ui/badge';
import { useUsers } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { ListSearch, ShowMore } from '@client/features/admin/components/list-paging';
import { ExportCsvButton, exportUrl } from '@client/features/admin/components/export-csv-button';
import { formatShortDate } from '@client/lib/format';

export default function AdminUsersPage() {
  const [q, setQ] = useState('');
  const users = useUsers(q);
  const rows = users.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <AdminFrame title="Users" actions={<ExportCsvButton url={exportUrl('/api/admin/users/export.csv', { q })} />}>
      <ListSearch id="users-q" label="Search user name or email" onSearch={setQ} />
      <QueryState query={users}>
        {() =>
          rows.length === 0 ? (
            <EmptyState>{q ? 'No account matches this search.' : 'No accounts yet.'}</EmptyState>
          ) : (
            <>
            <DataTable columns={['User', 'Email', 'Role', 'Newsletter', 'Purchases', 'Joined']}>
              {rows.map((u) => (
                <tr key={u.id} className={t.row}>
                  <th scope="row" className={`${t.td} font-medium`}>
                    {u.displayName ?? u.username}
                    <span className="block text-xs font-normal text-bone-400">@{u.username}</span>
                  </th>
                  <td className={t.td}>{u.email}</td>
                  <td className={t.td}>{u.role === 'admin' ? <Badge variant="accent">admin</Badge> : <Badge>user</Badge>}</td>
                  <td className={t.td}>{u.isSubscribed ? 'Subscribed' : '—'}</td>
                  <td className={`${t.td} tabular-nums`}>{u.purchases}</td>
                  <td className={t.td}>{formatShortDate(u.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
            <ShowMore pages={users} />
            </>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
