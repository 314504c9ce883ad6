/** /admin/messages: the contact inbox, with read / unread. */
import { useState } from 'react';
import { Mail, MailOpen } from 'lucide-react';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { toast } from '@client/components/ui/toast-store';
import { useMarkRead, useMessages } from '@client/features/admin/api';
import { AdminFrame, EmptyState, QueryState } from '@client/features/admin/components/admin-frame';
import { ShowMore } from '@client/features/admin/components/list-paging';
import { formatDateTime } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';

export default function AdminMessagesPage() {
  const [filter, setFilter] = useState<'all' | 'unread'>('all');
  const messages = useMessages(filter);
  const mark = useMarkRead();
  const unread = messages.data?.pages[0]?.unread;
  const rows = messages.data?.pages.flatMap((p) => p.items) ?? [];

  const toggle = async (id: number, read: boolean) => {
    try {
      await mark.mutateAsync({ id, read });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <AdminFrame
      title="Messages"
      actions={
        <div role="group" aria-label="Show" className="inline-flex gap-1 rounded-lg border border-ink-700 bg-ink-900 p-1">
          {(['all', 'unread'] as const).map((f) => (
            <Button key={f} size="sm" variant={filter === f ? 'primary' : 'ghost'} aria-pressed={filter === f} onClick={() => setFilter(f)}>
              {f === 'all' ? 'All' : `Unread${unread !== undefined ? ` (${unread})` : ''}`}
            </Button>
          ))}
        </div>
      }
    >
      <QueryState query={messages}>
        {() =>
          rows.length === 0 ? (
            <EmptyState>{filter === 'unread' ? 'No unread messages.' : 'No messages yet.'}</EmptyState>
          ) : (
            <>
            <ul className="grid gap-4">
              {rows.map((m) => (
                <li key={m.id}>
                  <Card className={m.readAt ? 'p-5 opacity-80' : 'border-blood-700/70 p-5'}>
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <div>
                        <p className="font-semibold text-bone-50">
                          {m.name} <a href={`mailto:${m.email}`} className="font-normal text-blood-300 underline-offset-2 hover:underline">{m.email}</a>
                        </p>
                        <p className="mt-1 flex items-center gap-2 text-sm text-bone-300">
                          <Badge variant="outline">{m.subject}</Badge>
                          <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                          {m.readAt ? null : <Badge variant="accent">Unread</Badge>}
                        </p>
                      </div>
                      <Button size="sm" variant="ghost" disabled={mark.isPending} onClick={() => toggle(m.id, !m.readAt)}>
                        {m.readAt ? <Mail aria-hidden="true" /> : <MailOpen aria-hidden="true" />}
                        {m.readAt ? 'Mark unread' : 'Mark read'}
                      </Button>
                    </div>
                    <p className="mt-3 whitespace-pre-wrap text-bone-100">{m.message}</p>
                  </Card>
                </li>
              ))}
            </ul>
            <ShowMore pages={messages} />
            </>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
