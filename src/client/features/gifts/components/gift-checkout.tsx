/** The checkout page's gift step: the gift form first, then the payment page the server answers. */
import { useState } from 'react';
import { Gift } from 'lucide-react';
import { isDigitalFormat } from '@shared/constants';
import { GIFT_MESSAGES, type GiftRequest } from '@shared/schemas/gifts';
import { formatLabel } from '@shared/constants';
import { Alert } from '@client/components/ui/alert';
import { toast } from '@client/components/ui/toast-store';
import { createCheckout, fetchFeaturedBook } from '@client/lib/checkout';
import { errorMessage, isApiStatus, isNetworkError } from '@client/lib/api-errors';
import { GiftForm } from './gift-form';

export interface GiftCheckoutProps {
  bookId: number | null;
  title: string | null;
  format: string;
  /** Where the payment page is (our own path or the provider's URL). */
  goTo: (url: string) => void;
  onSignedOut: () => void;
}

export function GiftCheckout({ bookId, title, format, goTo, onSignedOut }: GiftCheckoutProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!isDigitalFormat(format)) {
    return <Alert variant="destructive" title="We could not start your checkout">{GIFT_MESSAGES.digitalOnly}</Alert>;
  }

  const submit = async (gift: GiftRequest) => {
    setBusy(true);
    setError(null);
    try {
      const id = bookId ?? (await fetchFeaturedBook())?.id ?? null;
      if (id === null) throw new Error('The book is currently not available for purchase');
      const { url } = await createCheckout(id, format, { gift });
      goTo(url);
    } catch (err) {
      if (isApiStatus(err, 401)) {
        onSignedOut();
        return;
      }
      const message = errorMessage(err, err instanceof Error && isNetworkError(err) ? err.message : 'An error occurred during purchase. Please try again.');
      toast({ title: 'Purchase Failed', description: message, variant: 'destructive' });
      setError(message);
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 sm:p-8">
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg border border-ink-600 bg-ink-950 text-blood-400">
          <Gift aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 className="font-display text-2xl font-semibold text-bone-50">Buy as a gift</h2>
          <p className="mt-1 text-bone-300">
            {title ?? 'The book'} <span className="text-bone-400">· {formatLabel(format)}</span>
          </p>
          <p className="mt-2 text-sm text-bone-400">
            We email the recipient a link to claim it into their own library. It does not go into yours.
          </p>
        </div>
      </div>
      <GiftForm onSubmit={submit} busy={busy} serverError={error} />
    </div>
  );
}
