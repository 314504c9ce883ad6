/** A gift in the buyer's "Your Orders": who it is for, scheduled / sent / claimed, and a resend button. */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { GiftSummary } from '@shared/schemas/gifts';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { errorMessage } from '@client/lib/api-errors';
import { resendGift } from '../api';

const when = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export function giftStatusLabel(gift: GiftSummary): string {
  if (gift.status === 'refunded') return 'Refunded';
  if (gift.status === 'claimed') return 'Gift claimed';
  if (gift.status === 'sent') return 'Gift sent';
  return gift.sendAt ? `Gift scheduled for ${when.format(new Date(gift.sendAt))}` : 'Gift scheduled';
}

export function GiftStatus({ gift, ordersKey }: { gift: GiftSummary; ordersKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      const answer = await resendGift(gift.id);
      toast({ title: 'Gift sent again', description: answer.message });
      await queryClient.invalidateQueries({ queryKey: ordersKey });
    } catch (error) {
      toast({ title: 'Could not resend', description: errorMessage(error, 'Please try again later.'), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };
  return (
    <span className="flex flex-wrap items-center justify-end gap-2">
      <Badge variant={gift.status === 'claimed' ? 'accent' : 'outline'}>{giftStatusLabel(gift)}</Badge>
      {gift.canResend ? (
        <Button size="sm" variant="outline" onClick={() => void resend()} disabled={sending} aria-busy={sending || undefined}>
          {sending ? 'Sending...' : 'Resend gift'}
        </Button>
      ) : null}
    </span>
  );
}
