/** /admin/users: accounts with their roles. */
import { Badge } from '@client/components/ui/badge';
import { useUsers } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { formatShortDate } from '@client/lib/format';

export default function AdminUsersPage() {
  const users = useUsers();
  return (
    <AdminFrame title="Users">
      <QueryState query={users}>
        {() =>
          users.data!.length === 0 ? (
            <EmptyState>No accounts yet.</EmptyState>
          ) : (
            <DataTable columns={['User', 'Email', 'Role', 'Newsletter', 'Purchases', 'Joined']}>
              {users.data!.map((u) => (
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
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
