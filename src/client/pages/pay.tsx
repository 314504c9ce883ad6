/**
 * /pay/:sessionId: the built-in test payment page (the `local` provider), styled like a hosted
 * checkout, and the confirmation page a physical order returns to. Paying asks the server, which
 * completes the order through the same fulfilment code as a Stripe webhook.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from '@client/lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, CheckCircle2, CreditCard, Gift, Lock, PackageCheck, XCircle } from 'lucide-react';
import type { PaymentSession, ShippingAddress } from '@shared/schemas/checkout';
import { orderStatusLabel, priceLines } from '@shared/order-words';
import { formatReleaseDate, preOrderNotice } from '@shared/schemas/pre-orders';
import { formatLabel, formatPrice } from '@shared/constants';
import { fetchBasket } from '@client/features/checkout/basket';
import { Alert } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/toast-store';
import {
  cancelLocalSession,
  payLocalSession,
  MY_FORMATS_KEY,
  paymentSessionKey,
  usePaymentSession,
} from '@client/features/checkout/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { DiscountedPrice } from '@client/features/checkout/components/discounted-price';
import {
  type AddressDraft,
  type AddressErrors,
  EMPTY_ADDRESS,
  ShippingAddressFields,
  checkAddress,
} from '@client/features/checkout/components/shipping-address-fields';
import { errorMessage, isApiStatus } from '@client/lib/api-errors';

export default function PayPage() {
  useDocumentTitle('Secure Checkout');
  const { sessionId = '' } = useParams();
  const session = usePaymentSession(sessionId, { poll: true });

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-14 sm:px-6 md:py-20">
      {session.isPending ? (
        <div className="grid gap-6 md:grid-cols-2" aria-busy="true">
          <span className="sr-only" role="status">Loading checkout</span>
          <Skeleton className="h-96 w-full rounded-xl" />
          <Skeleton className="h-96 w-full rounded-xl" />
        </div>
      ) : session.isError ? (
        <SessionError error={session.error} />
      ) : (
        <SessionView session={session.data} />
      )}
    </div>
  );
}

function SessionError({ error }: { error: Error }) {
  const signedOut = isApiStatus(error, 401);
  return (
    <div className="grid max-w-xl gap-6">
      <Alert variant="destructive" title={signedOut ? 'Please log in' : 'Checkout not found'}>
        {signedOut
          ? 'Log in with the account that started this checkout to continue.'
          : 'This checkout does not exist or belongs to another account.'}
      </Alert>
      <Link to={signedOut ? '/login' : '/#purchase'} className={buttonClasses('outline', 'md', 'w-fit')}>
        {signedOut ? 'Log in' : 'Back to formats'}
      </Link>
    </div>
  );
}

function SessionView({ session }: { session: PaymentSession }) {
  const expired = session.status === 'expired' || (session.status === 'open' && new Date(session.expiresAt) <= new Date());
  return (
    <div className="grid overflow-hidden rounded-2xl border border-ink-700 bg-ink-900/80 shadow-2xl shadow-black/40 md:grid-cols-[1fr_1.1fr]">
      <OrderSummary session={session} />
      <div className="border-t border-ink-700 bg-ink-950/60 p-8 md:border-t-0 md:border-l">
        {session.status === 'completed' ? (
          <Completed session={session} />
        ) : session.status === 'cancelled' ? (
          <Closed title="Checkout cancelled" text="No payment was taken. You can choose a format again at any time." />
        ) : expired ? (
          <Closed title="Checkout expired" text="This checkout is no longer open. Please start your purchase again." />
        ) : session.provider === 'local' ? (
          <PayForm session={session} />
        ) : (
          <div className="grid gap-4">
            <Spinner label="Waiting for the payment confirmation..." showLabel />
            <p className="text-sm text-bone-300">This page updates as soon as the payment provider confirms your order.</p>
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * A basket order's discount is what the code took off its lines: its total also carries shipping and any
 * tax added on top, so it cannot be read from the total as a single format's is.
 */
function basketDiscount(session: PaymentSession & { lines: NonNullable<PaymentSession['lines']> }): string | null {
  const listed = session.lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const charged = session.lines.reduce((sum, l) => sum + l.amount - (session.pricesIncludeTax === false ? l.tax : 0), 0);
  return listed > charged ? formatPrice(charged - listed) : null;
}

function OrderSummary({ session }: { session: PaymentSession }) {
  const price = session.lines
    ? { ...priceLines(session.amount), discount: basketDiscount({ ...session, lines: session.lines }) }
    : priceLines(session.amount, session.originalAmount);
  return (
    <div className="p-8">
      <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase">
        <Lock aria-hidden="true" className="size-3.5" /> Secure checkout
      </p>
      {session.lines ? (
        <h1 className="mt-8 font-display text-2xl font-semibold text-bone-50">Your order</h1>
      ) : (
      <div className="mt-8 flex gap-5">
        <img
          src={session.book.coverImage}
          alt={`Cover of ${session.book.title}`}
          className="h-36 w-24 shrink-0 rounded-sm border border-ink-700 object-cover shadow-lg shadow-black/50"
        />
        <div>
          <h1 className="font-display text-2xl font-semibold text-bone-50">{session.book.title}</h1>
          <p className="mt-1 text-bone-300">{formatLabel(session.format)}</p>
          {session.availableAt ? (
            <p className="mt-3 flex items-start gap-2 rounded-lg border border-blood-500/40 bg-blood-500/10 px-3 py-2 text-sm text-bone-100">
              <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blood-400" />
              {preOrderNotice(session.availableAt)}
            </p>
          ) : null}
        </div>
      </div>
      )}
      {session.gift ? <GiftFor gift={session.gift} /> : null}
      <dl className="mt-10 grid gap-3 border-t border-ink-700 pt-6 text-sm">
        {session.lines ? (
          session.lines.map((line) => (
            <div key={line.id} className="flex justify-between gap-4 text-bone-300" data-testid="order-line">
              <dt>
                {line.description} × {line.quantity}
              </dt>
              <dd>{formatPrice(line.unitPrice * line.quantity)}</dd>
            </div>
          ))
        ) : (
        <div className="flex justify-between text-bone-300">
          <dt>{formatLabel(session.format)} × 1</dt>
          <dd>{price.listPrice}</dd>
        </div>
        )}
        {price.discount ? (
          <div className="flex justify-between gap-4 text-bone-300">
            <dt>
              Discount{session.discountCode ? <> (code <span className="font-mono">{session.discountCode}</span>)</> : null}
            </dt>
            <dd data-testid="discount">{price.discount}</dd>
          </div>
        ) : null}
        {session.shipping && session.shippingDescription ? (
          <div className="flex justify-between gap-4 text-bone-300" data-testid="order-shipping">
            <dt>{session.shippingDescription}</dt>
            <dd>{session.displayShipping}</dd>
          </div>
        ) : (
          <div className="flex justify-between text-bone-300">
            <dt>{session.digital ? 'Delivery' : 'Shipping'}</dt>
            <dd>{deliveryText(session)}</dd>
          </div>
        )}
        {session.tax ? (
          <>
            <div className="flex justify-between gap-4 text-bone-300">
              <dt>Net</dt>
              <dd data-testid="order-net">{session.displayNet}</dd>
            </div>
            <div className="flex justify-between gap-4 text-bone-300">
              <dt>{session.pricesIncludeTax === false ? 'Tax' : 'Tax included'}</dt>
              <dd data-testid="order-tax">{session.displayTax}</dd>
            </div>
          </>
        ) : null}
        <div className="flex justify-between border-t border-ink-700 pt-3 text-base font-semibold text-bone-50">
          <dt>{session.status === 'completed' ? 'Total paid' : 'Total due'}</dt>
          <dd>
            <DiscountedPrice displayPrice={session.displayPrice} displayOriginalPrice={session.lines ? null : session.displayOriginalPrice} />
          </dd>
        </div>
      </dl>
    </div>
  );
}

/** How the order reaches the buyer; a pre-order's files (or its parcel) wait for the release. */
function deliveryText(session: PaymentSession): string {
  if (session.gift) return 'By email to the recipient';
  if (session.availableAt) return session.digital ? 'In your library on release day' : 'Ships on release day, included';
  return session.digital ? 'Instant download' : 'Included';
}

/** The payment toast's words: a pre-order says when it comes, never that it is ready. */
function paidDescription(session: PaymentSession, orderReference: string | null): string {
  const label = formatLabel(session.format);
  if (session.availableAt) {
    return `${preOrderNotice(session.availableAt)}. ${session.digital ? `Your ${label} will be in your library on release day.` : `Order ${orderReference ?? ''} confirmed.`}`;
  }
  return session.digital ? `Your ${label} is ready in your library.` : `Order ${orderReference ?? ''} confirmed.`;
}

const sendDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Whom a gift is for, so the buyer pays knowing where it goes. */
function GiftFor({ gift }: { gift: NonNullable<PaymentSession['gift']> }) {
  return (
    <div className="mt-8 flex gap-3 rounded-lg border border-blood-500/30 bg-blood-500/5 p-4 text-sm">
      <Gift aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blood-400" />
      <p className="text-bone-200">
        A gift for <strong className="text-bone-50">{gift.recipientName}</strong>{' '}
        <span className="break-all text-bone-400">({gift.recipientEmail})</span>.{' '}
        {gift.sendAt
          ? `We email them a link to claim it on ${sendDate.format(new Date(gift.sendAt))}.`
          : 'We email them a link to claim it as soon as you have paid.'}
      </p>
    </div>
  );
}

function PayForm({ session }: { session: PaymentSession }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'pay' | 'cancel' | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [address, setAddress] = useState<AddressDraft>(EMPTY_ADDRESS);
  const [addressErrors, setAddressErrors] = useState<AddressErrors>({});

  async function run(action: 'pay' | 'cancel') {
    setConfirmCancel(false);
    // A print order needs the address it ships to before anything is paid.
    let shipTo: ShippingAddress | undefined;
    if (action === 'pay' && !session.digital) {
      const checked = checkAddress(address);
      if ('errors' in checked) {
        setAddressErrors(checked.errors);
        return;
      }
      setAddressErrors({});
      shipTo = checked.address;
    }
    setBusy(action);
    try {
      const result = action === 'pay' ? await payLocalSession(session.id, shipTo) : await cancelLocalSession(session.id);
      if (action === 'pay' && result.status === 'completed') {
        toast({ title: 'Payment successful', description: paidDescription(session, result.orderReference) });
        // The library must show the new purchase, not a cached list.
        await queryClient.invalidateQueries({ queryKey: ['/api/library/books'] });
        await queryClient.invalidateQueries({ queryKey: MY_FORMATS_KEY });
      }
      if (action === 'cancel' && result.status === 'cancelled') {
        toast({ title: 'Checkout cancelled', description: 'No payment was taken.' });
      }
      await queryClient.invalidateQueries({ queryKey: paymentSessionKey(session.id) });
      // The confirmation (or the library) takes the payment page's place in the history: Back goes to the
      // formats, which say "You bought this a moment ago", never to a page that takes a second payment.
      navigate(result.redirectTo, { replace: true });
    } catch (error) {
      toast({ title: 'Payment Failed', description: errorMessage(error, 'The payment could not be completed.'), variant: 'destructive' });
      await queryClient.invalidateQueries({ queryKey: paymentSessionKey(session.id) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="grid gap-6">
      <div>
        <h2 className="font-display text-xl font-semibold text-bone-50">Pay with card</h2>
        <p className="mt-1 text-sm text-bone-400">Receipt to {session.customerEmail}</p>
      </div>
      {session.digital ? null : (
        <ShippingAddressFields value={address} errors={addressErrors} disabled={busy !== null} onChange={setAddress} />
      )}
      <div role="note" aria-labelledby="test-payment-title" className="rounded-lg border border-dashed border-bone-300/30 p-4 text-sm text-bone-300">
        <p className="flex items-center gap-2 font-medium text-bone-100">
          <CreditCard aria-hidden="true" className="size-4 text-blood-400" />
          <span id="test-payment-title">
            Test payment<span className="sr-only"> (demo feature)</span>
          </span>
          <Badge variant="outline" aria-hidden="true">Demo</Badge>
        </p>
        <p className="mt-1">This store runs in test mode: no card is charged and no card details are needed.</p>
        <p className="mt-1 text-bone-400">
          Test payments are a demo feature and are switched off in production, where card payments go through the payment provider.
        </p>
      </div>
      <Button size="lg" className="w-full" onClick={() => void run('pay')} disabled={busy !== null}>
        {busy === 'pay' ? (
          <>
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-bone-50/40 border-t-bone-50" />
            Processing...
          </>
        ) : (
          <>
            <Lock aria-hidden="true" /> Pay {session.displayPrice}
          </>
        )}
      </Button>
      <Button variant="ghost" className="w-full" onClick={() => setConfirmCancel(true)} disabled={busy !== null}>
        {busy === 'cancel' ? 'Cancelling...' : 'Cancel'}
      </Button>
      <Dialog open={confirmCancel} onOpenChange={setConfirmCancel}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancel this checkout?</DialogTitle>
            <DialogDescription>No payment will be taken. You can choose a format again at any time.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmCancel(false)}>
              Keep paying
            </Button>
            <Button variant="destructive" onClick={() => void run('cancel')}>
              Cancel checkout
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** A paid basket order: its lines have left the basket, so the header's count is asked again. */
function OrderConfirmed({ session }: { session: PaymentSession }) {
  useEffect(() => {
    void fetchBasket(true).catch(() => undefined);
  }, []);
  return (
      <div className="grid gap-5">
        <CheckCircle2 aria-hidden="true" className="size-10 text-blood-400" />
        <h2 className="font-display text-2xl font-semibold text-bone-50">Order confirmed</h2>
        <p className="text-bone-300">
          Thank you. Digital formats are waiting in your library; printed books will be packed and shipped to you. A receipt
          listing every item is on its way to {session.customerEmail}.
        </p>
        <p className="text-sm text-bone-400">
          Order reference <span className="font-mono text-bone-50">{session.orderReference}</span>
        </p>
        <Link to="/profile#library" className={buttonClasses('primary', 'lg', 'w-fit')}>
          Go to My Library
        </Link>
      </div>
    );
}

function Completed({ session }: { session: PaymentSession }) {
  if (session.lines) return <OrderConfirmed session={session} />;
  if (session.digital) {
    return (
      <div className="grid gap-5">
        <CheckCircle2 aria-hidden="true" className="size-10 text-blood-400" />
        <h2 className="font-display text-2xl font-semibold text-bone-50">Payment complete</h2>
        <p className="text-bone-300">
          {session.availableAt
            ? `Your ${formatLabel(session.format)} is reserved in your library and opens on ${formatReleaseDate(session.availableAt)}.`
            : `Your ${formatLabel(session.format)} is waiting in your library.`}
        </p>
        <Link to="/profile#library" className={buttonClasses('primary', 'lg', 'w-fit')}>
          Go to My Library
        </Link>
      </div>
    );
  }
  return (
    <div className="grid gap-5">
      <PackageCheck aria-hidden="true" className="size-10 text-blood-400" />
      <h2 className="font-display text-2xl font-semibold text-bone-50">Order confirmed</h2>
      <p className="text-bone-300">
        Thank you. Your {formatLabel(session.format)} will be packed and shipped to you
        {session.availableAt ? ` when the book comes out on ${formatReleaseDate(session.availableAt)}` : ''}. A receipt is on its way to{' '}
        {session.customerEmail}.
      </p>
      <dl className="grid gap-2 rounded-lg border border-ink-700 p-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-bone-400">Order reference</dt>
          <dd className="font-mono text-bone-50">{session.orderReference}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-bone-400">Status</dt>
          <dd className="text-right text-bone-50">{orderStatusLabel('completed', session.format, session.availableAt)}</dd>
        </div>
        {session.shippingAddress?.length ? (
          <div className="flex justify-between gap-4">
            <dt className="text-bone-400">Shipping to</dt>
            <dd className="text-right text-bone-50">
              {session.shippingAddress.map((line, i) => (
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </dd>
          </div>
        ) : null}
      </dl>
      <Link to="/profile#library" className={buttonClasses('outline', 'md', 'w-fit')}>
        View my orders
      </Link>
    </div>
  );
}

function Closed({ title, text }: { title: string; text: string }) {
  return (
    <div className="grid gap-5">
      <XCircle aria-hidden="true" className="size-10 text-bone-400" />
      <h2 className="font-display text-2xl font-semibold text-bone-50">{title}</h2>
      <p className="text-bone-300">{text}</p>
      <Link to="/#purchase" className={buttonClasses('outline', 'md', 'w-fit')}>
        Back to formats
      </Link>
    </div>
  );
}
