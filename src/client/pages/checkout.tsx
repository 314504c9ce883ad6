/**
 * /checkout (docs/PRODUCT.md, Checkout): reads amount, title, format and bookId from the query, asks the server to
 * start the payment (the server prices it; the amount here is never sent) and goes to the hosted
 * payment page it answers. Every incomplete query ends in a message, never in a spinner that waits.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from '@client/lib/router';
import { Library, PackageCheck, ShieldCheck } from 'lucide-react';
import { PURCHASE_FORMATS, type PurchaseFormat } from '@shared/constants';
import { formatLabel } from '@shared/constants';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/toast-store';
import { createCheckout, fetchFeaturedBook } from '@client/features/checkout/api';
import { ApiError, errorMessage, isApiStatus } from '@client/lib/api-errors';
import { INTENT_PARAM, newPurchaseIntentKey } from '@client/lib/checkout';
import { REPEAT_PURCHASE_CODES, REPEAT_PURCHASE_MESSAGES, type CheckoutResponse } from '@shared/schemas/checkout';
import { DiscountCheckout } from '@client/features/checkout/components/discount-checkout';
import { savePurchaseIntent } from '@client/features/checkout/intent';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { GiftCheckout } from '@client/features/gifts/components/gift-checkout';

/** Shown when /checkout is opened without a price (a typed or cut address): what to do, in plain words. */
export const CHOOSE_A_FORMAT = "Choose a format on the book's page to buy it.";

const isFormat = (value: string | null): value is PurchaseFormat =>
  value !== null && (PURCHASE_FORMATS as readonly string[]).includes(value);

/**
 * Absolute URLs (Stripe) leave the app; our own paths (the local payment page) stay in it. Either way the
 * payment page REPLACES /checkout in the history, so browser Back from it (or from its confirmation)
 * returns to the formats, never to a /checkout that would start another payment (decision 0066).
 */
function goTo(url: string, navigate: (to: string, options?: { replace?: boolean }) => void) {
  if (url.startsWith('/') && !url.startsWith('//')) navigate(url, { replace: true });
  else window.location.replace(url);
}

/** A checkout the server declined because it would repeat a purchase: owned, or bought a moment ago. */
type Repeat = 'owned' | 'recent';

function repeatOf(error: unknown): Repeat | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  if (error.code === REPEAT_PURCHASE_CODES.alreadyOwned) return 'owned';
  if (error.code === REPEAT_PURCHASE_CODES.recent) return 'recent';
  return null;
}

export default function CheckoutPage() {
  useDocumentTitle('Checkout');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [repeat, setRepeat] = useState<Repeat | null>(null);
  const started = useRef(false);
  const amount = params.get('amount');
  const format = params.get('format');
  const bookId = params.get('bookId');
  const title = params.get('title');
  const discountCode = params.get('discountCode')?.trim() || null;
  // "Buy as a gift": the gift form comes first, and it starts the payment itself.
  const gift = params.get('gift') === '1';
  // This address is one purchase intent; its key makes a second visit answer the same checkout.
  const intent = params.get(INTENT_PARAM);
  const confirmRepeat = params.get('confirmRepeat') === '1';

  // The payment page the server answers, or the refusal (signed out: log in and come back).
  const handleStart = (start: Promise<CheckoutResponse>) =>
    start
      .then(({ url, completed }) => {
        // Back to an address already paid for: its confirmation, and nothing new is charged.
        if (completed) toast({ title: REPEAT_PURCHASE_MESSAGES.recent, description: 'Here is your order. Nothing new was charged.' });
        goTo(url, navigate);
      })
      .catch((err: unknown) => {
        const declined = repeatOf(err);
        if (declined) {
          setRepeat(declined);
          return;
        }
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
    if (!intent) {
      // An address without an intent (typed in, or an older link) gets one first, kept in the history.
      const next = new URLSearchParams(params);
      next.set(INTENT_PARAM, newPurchaseIntentKey());
      navigate(`/checkout?${next.toString()}`, { replace: true });
      return;
    }
    started.current = true;
    // With a code, the reader first sees the discounted price and continues from there.
    if (discountCode && isFormat(format) && bookId && amount) return;
    if (!amount) {
      toast({ title: 'Checkout Error', description: CHOOSE_A_FORMAT, variant: 'destructive' });
      navigate('/', { replace: true });
      return;
    }
    // A missing format is as unusable as an unknown one ("Invalid format specified", docs/PRODUCT.md, Checkout); waiting for
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
      return handleStart(createCheckout(id, format, { idempotencyKey: intent, confirmRepeat }));
    });
  }, [amount, format, bookId, navigate, discountCode, gift, intent, confirmRepeat, params]);

  /** "Buy another copy": the same intent, now confirmed. */
  const buyAnotherCopy = () => {
    if (!isFormat(format) || !bookId) return;
    setRepeat(null);
    void handleStart(createCheckout(Number(bookId), format, { idempotencyKey: intent ?? undefined, confirmRepeat: true, discountCode: discountCode ?? undefined }));
  };

  return (
    <PageShell width="narrow" eyebrow="Purchase" title="Checkout">
      {repeat ? (
        <RepeatPurchase repeat={repeat} format={isFormat(format) ? format : null} title={title} onBuyAnother={buyAnotherCopy} />
      ) : gift && !error ? (
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
          idempotencyKey={intent ?? undefined}
          confirmRepeat={confirmRepeat}
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

/** The checkout declined as a repeat: what the reader already has, and what they can do next. */
function RepeatPurchase({ repeat, format, title, onBuyAnother }: { repeat: Repeat; format: PurchaseFormat | null; title: string | null; onBuyAnother: () => void }) {
  const label = format ? formatLabel(format) : 'format';
  const book = title ?? 'this book';
  if (repeat === 'owned') {
    return (
      <div className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 sm:p-8">
        <Library aria-hidden="true" className="size-10 text-blood-400" />
        <div>
          <h2 className="font-display text-2xl font-semibold text-bone-50">{REPEAT_PURCHASE_MESSAGES.alreadyOwned}</h2>
          <p className="mt-2 text-bone-300">
            You already own the {label} of {book}. Read or download it from your library: nothing was charged.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to="/profile#library" className={buttonClasses('primary', 'md')}>
            Go to My Library
          </Link>
          <Link to="/#purchase" className={buttonClasses('outline', 'md')}>
            Back to formats
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 sm:p-8">
      <PackageCheck aria-hidden="true" className="size-10 text-blood-400" />
      <div>
        <h2 className="font-display text-2xl font-semibold text-bone-50">{REPEAT_PURCHASE_MESSAGES.recent}</h2>
        <p className="mt-2 text-bone-300">
          Your {label} of {book} is already ordered. Nothing was charged for this second checkout. Do you want another copy?
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <Link to="/profile#library" className={buttonClasses('primary', 'md')}>
          View my orders
        </Link>
        <Button variant="outline" onClick={onBuyAnother}>
          Buy another copy
        </Button>
      </div>
    </div>
  );
}
