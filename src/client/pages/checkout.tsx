/**
 * /checkout (SPEC 4 step 7): reads amount, title, format and bookId from the query, asks the server to
 * start the payment (the server prices it; the amount here is never sent) and goes to the hosted
 * payment page it answers. Every incomplete query ends in a message, never in a spinner that waits.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from '@client/lib/router';
import { ShieldCheck } from 'lucide-react';
import { PURCHASE_FORMATS, type PurchaseFormat } from '@shared/constants';
import { formatLabel } from '@shared/constants';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { buttonClasses } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/toast-store';
import { createCheckout, fetchFeaturedBook } from '@client/features/checkout/api';
import { errorMessage, isApiStatus } from '@client/lib/api-errors';
import { DiscountCheckout } from '@client/features/checkout/components/discount-checkout';
import { savePurchaseIntent } from '@client/features/checkout/intent';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { GiftCheckout } from '@client/features/gifts/components/gift-checkout';

const isFormat = (value: string | null): value is PurchaseFormat =>
  value !== null && (PURCHASE_FORMATS as readonly string[]).includes(value);

/** Absolute URLs (Stripe) leave the app; our own paths (the local payment page) stay in it. */
function goTo(url: string, navigate: (to: string) => void) {
  if (url.startsWith('/') && !url.startsWith('//')) navigate(url);
  else window.location.assign(url);
}

export default function CheckoutPage() {
  useDocumentTitle('Checkout');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const amount = params.get('amount');
  const format = params.get('format');
  const bookId = params.get('bookId');
  const title = params.get('title');
  const discountCode = params.get('discountCode')?.trim() || null;
  // "Buy as a gift": the gift form comes first, and it starts the payment itself.
  const gift = params.get('gift') === '1';

  // The payment page the server answers, or the refusal (signed out: log in and come back).
  const handleStart = (start: Promise<{ url: string }>) =>
    start
      .then(({ url }) => goTo(url, navigate))
      .catch((err: unknown) => {
        if (isApiStatus(err, 401) && isFormat(format)) {
          // Signed out meanwhile: keep the choice and come back here after logging in.
          savePurchaseIntent(format, Date.now(), discountCode);
          toast({ title: 'Please log in', description: 'Sign in to complete your purchase.' });
          navigate('/login?returnTo=purchase', { replace: true });
          return;
        }
        const message = errorMessage(err, 'An error occurred during purchase. Please try again.');
        toast({ title: 'Purchase Failed', description: message, variant: 'destructive' });
        setError(message);
      });

  useEffect(() => {
    if (started.current || gift) return;
    started.current = true;
    // With a code, the reader first sees the discounted price and continues from there.
    if (discountCode && isFormat(format) && bookId && amount) return;
    if (!amount) {
      toast({ title: 'Checkout Error', description: 'Missing amount parameter', variant: 'destructive' });
      navigate('/', { replace: true });
      return;
    }
    // A missing format is as unusable as an unknown one (SPEC 8 "Invalid format specified"); waiting for
    // it would spin forever.
    if (!isFormat(format)) {
      toast({ title: 'Checkout Error', description: 'Invalid format specified', variant: 'destructive' });
      setError('Invalid format specified');
      return;
    }
    // Without a bookId the reader means the book on sale; the server prices and checks it either way.
    const book = bookId ? Promise.resolve(Number(bookId)) : fetchFeaturedBook().then((b) => b?.id ?? null);
    void book.then((id) => {
      if (id === null) {
        toast({ title: 'Book not available', description: 'The book is currently not available for purchase', variant: 'destructive' });
        setError('The book is currently not available for purchase');
        return;
      }
      return handleStart(createCheckout(id, format));
    });
  }, [amount, format, bookId, navigate, discountCode, gift]);

  return (
    <PageShell width="narrow" eyebrow="Purchase" title="Checkout">
      {gift && !error ? (
        <GiftCheckout
          bookId={bookId ? Number(bookId) : null}
          title={title}
          format={format ?? ''}
          goTo={(url) => goTo(url, navigate)}
          onSignedOut={() => {
            toast({ title: 'Please log in', description: 'Sign in to complete your purchase.' });
            navigate('/login', { replace: true });
          }}
        />
      ) : !error && discountCode && isFormat(format) && bookId && amount ? (
        <DiscountCheckout
          bookId={Number(bookId)}
          format={format}
          title={title}
          discountCode={discountCode}
          onCheckout={handleStart}
          onWithoutCode={() => {
            const next = new URLSearchParams(params);
            next.delete('discountCode');
            started.current = false;
            navigate(`/checkout?${next.toString()}`, { replace: true });
          }}
        />
      ) : error ? (
        <div className="grid gap-6">
          <Alert variant="destructive" title="We could not start your checkout">
            {error}
          </Alert>
          <Link to="/#purchase" className={buttonClasses('outline', 'md', 'w-fit')}>
            Back to formats
          </Link>
        </div>
      ) : (
        <div className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-8">
          <Spinner label="Redirecting to secure payment..." showLabel />
          {title && isFormat(format) ? (
            <p className="text-bone-200">
              {title} <span className="text-bone-400">· {formatLabel(format)}</span>
            </p>
          ) : null}
          <p className="flex items-center gap-2 text-sm text-bone-400">
            <ShieldCheck aria-hidden="true" className="size-4 text-blood-400" />
            The price is confirmed by our server on the payment page.
          </p>
        </div>
      )}
    </PageShell>
  );
}
