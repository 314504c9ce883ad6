/** On an e-book order in the admin: the reader's Send to Kindle history, loaded when opened. */
import { useState } from 'react';
import { useOrderKindleSends } from '../api';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const STATUS: Record<string, string> = { sent: 'delivered to Amazon', pending: 'queued', failed: 'failed', kept: 'kept (no mail server)' };

export function OrderKindleSends({ orderId }: { orderId: number }) {
  const [open, setOpen] = useState(false);
  const sends = useOrderKindleSends(orderId, open);
  return (
    <details className="mt-1 text-xs text-bone-400" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="cursor-pointer hover:text-bone-200">Send to Kindle history</summary>
      {sends.isPending && open ? <p>Loading...</p> : null}
      {sends.isError ? <p role="alert">Could not load the sends.</p> : null}
      {sends.data ? (
        sends.data.length === 0 ? (
          <p>Never sent to a Kindle.</p>
        ) : (
          <ul className="mt-1 grid gap-1">
            {sends.data.map((s) => (
              <li key={s.id}>
                {when(s.createdAt)} to <span className="break-all text-bone-200">{s.address}</span>
                {s.mailStatus ? ` (${STATUS[s.mailStatus] ?? s.mailStatus})` : ''}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </details>
  );
}
