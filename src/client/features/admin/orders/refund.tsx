/** The orders page's refund: a button that asks first, and the "Refunded by ... on ..." line (issue 15). */
import { useState } from 'react';
import { Undo2 } from 'lucide-react';
import { formatLabel, formatPrice } from '@shared/constants';
import type { AdminOrder } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
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

export function RefundButton({ order, busy, onRefund }: { order: AdminOrder; busy: boolean; onRefund: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
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
              {order.buyer.displayName || order.buyer.username} gets {formatPrice(order.price)} back and is told by email. The {formatLabel(order.format)} and
              anything that came with it (such as an included ebook) are withdrawn at once. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Keep the order
            </Button>
            <Button
              variant="destructive"
              disabled={busy}
              onClick={() => {
                setOpen(false);
                void onRefund();
              }}
            >
              Refund {formatPrice(order.price)}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
