/**
 * The checkout page with a discount code: the server prices the format with the code (struck list price,
 * price to pay) before anything is created; "Continue to payment" starts the checkout with the code.
 * A refused code says why, and the reader may go on without it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '@client/lib/router';
import { ShieldCheck, TicketPercent } from 'lucide-react';
import { type PurchaseFormat } from '@shared/constants';
import { formatLabel } from '@shared/constants';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api-errors';
import { createCheckout, fetchQuote } from '../api';
import { DiscountedPrice } from './discounted-price';

export function DiscountCheckout({
  bookId,
  format,
  title,
  discountCode,
  onCheckout,
  onWithoutCode,
  idempotencyKey,
  confirmRepeat,
}: {
  bookId: number;
  format: PurchaseFormat;
  title: string | null;
  discountCode: string;
  /** Goes to the payment page the server answers, or handles a refusal (401 included). */
  onCheckout: (start: Promise<{ url: string }>) => Promise<void>;
  onWithoutCode: () => void;
  /** The purchase intent of the /checkout address, so a repeat answers the same checkout. */
  idempotencyKey?: string;
  confirmRepeat?: boolean;
}) {
  const quote = useQuery({
    queryKey: ['/api/checkout/quote', bookId, format, discountCode],
    queryFn: () => fetchQuote(bookId, format, discountCode),
    retry: false,
    staleTime: 0,
  });
  const [starting, setStarting] = useState(false);

  if (quote.isPending) return <Spinner label="Checking your discount code..." showLabel />;
  if (quote.isError) {
    return (
      <div className="grid gap-6">
        <Alert variant="destructive" title="This code cannot be used">
          {errorMessage(quote.error, 'The discount code could not be checked. Please try again.')}
        </Alert>
        <div className="flex flex-wrap gap-3">
          <Button onClick={onWithoutCode}>Continue without the code</Button>
          <Link to="/#purchase" className={buttonClasses('outline', 'md')}>
            Back to formats
          </Link>
        </div>
      </div>
    );
  }
  const q = quote.data;
  return (
    <div className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 sm:p-8">
      <p className="text-bone-200">
        {title ?? 'Your book'} <span className="text-bone-400">· {formatLabel(format)}</span>
      </p>
      <p className="flex items-center gap-2 text-sm text-bone-300">
        <TicketPercent aria-hidden="true" className="size-4 text-blood-400" />
        Discount code <span className="font-mono text-bone-100">{q.discountCode}</span> applied
      </p>
      <p className="font-display text-4xl font-semibold text-bone-50">
        <DiscountedPrice displayPrice={q.displayPrice} displayOriginalPrice={q.displayOriginalPrice} />
      </p>
      <Button
        size="lg"
        className="w-full sm:w-fit"
        disabled={starting}
        onClick={() => {
          setStarting(true);
          void onCheckout(createCheckout(bookId, format, { discountCode, idempotencyKey, confirmRepeat })).finally(() => setStarting(false));
        }}
      >
        {starting ? 'Redirecting to secure payment...' : `Continue to payment`}
      </Button>
      <p className="flex items-center gap-2 text-sm text-bone-400">
        <ShieldCheck aria-hidden="true" className="size-4 text-blood-400" />
        The price is confirmed by our server on the payment page.
      </p>
    </div>
  );
}
