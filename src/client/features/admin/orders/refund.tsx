/** The orders page's refund: a button that asks first, and the "Refunded by ... on ..." line (issue 15). */
import { useState } from 'react';
import { Undo2 } from 'lucide-react';
import { formatLabel, formatPrice } from '@shared/constants';
import type { AdminOrder } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { formatDateTime } from '@client/lib/format';

/** Only rows somebody paid for are refunded; what they paid for (an included ebook) goes with them. */
export const canRefund = (o: AdminOrder) =>
  (o.kind === undefined || o.kind === 'paid' || o.kind === 'gift') && (o.status === 'completed' || o.status === 'shipped');

/** An included ebook (or a claimed gift) was paid for by another order, which is where it is refunded. */
const KIND_NOTES: Record<string, string> = {
  included: 'Included with a print order',
  gift: 'Bought as a gift',
  gift_claim: 'Claimed gift',
  free: 'Free book for subscribers',
};

/** The PDF edition comes with the e-book (decision 0066), whatever paid for that e-book. */
const INCLUDED_PDF_NOTE = 'Included with the e-book';

/** What kind of row this is, when it is not a plain purchase. */
export function PaidByNote({ order }: { order: AdminOrder }) {
  const note = order.kind === 'included' && order.format === 'pdf' ? INCLUDED_PDF_NOTE : order.kind ? KIND_NOTES[order.kind] : undefined;
  return note ? <span className="block text-xs text-bone-400">{note}</span> : null;
}

export function RefundedNote({ order }: { order: AdminOrder }) {
  if (order.status !== 'refunded' || !order.refundedAt) return null;
  const who = order.refundedBy ? `by ${order.refundedBy}` : 'at the payment provider';
  return (
    <span className="mt-1 block text-xs text-bone-400">
      Refunded {who} on {formatDateTime(order.refundedAt)}
    </span>
  );
}

/**
 * Each refund of a row that was refunded in parts (decision 0082); a row refunded whole at once says so in
 * RefundedNote alone.
 */
export function RefundList({ order }: { order: AdminOrder }) {
  const list = order.refunds ?? [];
  if (!list.some((r) => !r.whole)) return null;
  return (
    <ul className="mt-1 text-xs text-bone-400" aria-label={`Refunds of order ${order.orderReference}`}>
      {list.map((r) => (
        <li key={r.id}>
          {formatPrice(r.amount)} refunded {r.by ? `by ${r.by}` : 'at the payment provider'} on {formatDateTime(r.at)}
        </li>
      ))}
    </ul>
  );
}

/** "£3.00" typed in the dialog, in pence; null for anything that is not an amount of money. */
export function penceOf(typed: string): number | null {
  const match = /^£?\s*(\d{1,6})(?:\.(\d{1,2}))?$/.exec(typed.trim());
  if (!match) return null;
  const pence = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  return pence > 0 ? pence : null;
}

export function RefundButton({ order, busy, onRefund }: { order: AdminOrder; busy: boolean; onRefund: (amount?: number) => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const left = order.price - (order.refundedAmount ?? 0);
  const part = typed.trim() === '' ? undefined : penceOf(typed);
  const tooMuch = part != null && part > left;
  const invalid = part === null || tooMuch;
  return (
    <>
      <Button size="sm" variant="outline" disabled={busy} onClick={() => setOpen(true)} aria-label={`Refund order ${order.orderReference}`}>
        <Undo2 aria-hidden="true" />
        Refund
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Refund order {order.orderReference}?</DialogTitle>
            <DialogDescription>
              {order.buyer.displayName || order.buyer.username} gets {formatPrice(left)} back and is told by email. The {formatLabel(order.format)} and
              anything that came with it (such as an included ebook) are withdrawn at once. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`refund-amount-${order.id}`}>Or refund only part of it (£)</Label>
            <Input
              id={`refund-amount-${order.id}`}
              inputMode="decimal"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={invalid ? `refund-amount-${order.id}-error` : undefined}
            />
            {invalid ? (
              <p id={`refund-amount-${order.id}-error`} className="text-sm text-blood-400">
                {tooMuch ? `At most ${formatPrice(left)} can be refunded` : 'Give an amount such as 3.50'}
              </p>
            ) : (
              <p className="text-xs text-bone-400">A part refund keeps the order in the reader&apos;s library.</p>
            )}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Keep the order
            </Button>
            <Button
              variant="destructive"
              disabled={busy || invalid}
              onClick={() => {
                setOpen(false);
                setTyped('');
                void onRefund(part ?? undefined);
              }}
            >
              Refund {formatPrice(part ?? left)}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
