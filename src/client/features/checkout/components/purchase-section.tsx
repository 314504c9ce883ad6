/**
 * The home page's purchase section (docs/PRODUCT.md, Purchase section; Buying a format): four formats whose
 * text comes from the site settings and whose prices come from the server. Buying refreshes the auth
 * status, sends signed-out visitors to log in (keeping their choice), and signed-in readers to /checkout.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from '@client/lib/router';
import { AudioLines, Book, BookOpen, BookText, Check, FileText, Gift, Headphones, Library, Package, ShoppingBasket, Tablet, Zap } from 'lucide-react';
import { BULK_ORDER_MIN_COPIES, formatLabel, isDigitalFormat } from '@shared/constants';
import { type MyFormat, type MyFormatsResponse, REPEAT_PURCHASE_MESSAGES, type StoreFormat } from '@shared/schemas/checkout';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/toast-store';
import { useAuthStatus } from '@client/lib/session';
import { scrollToAnchor } from '@client/lib/scroll-to-anchor';
import { roomPath } from '@client/lib/room-path';
import { useMyFormats, useStoreFormats } from '../api';
import { addToBasket } from '../basket';
import { ApiError } from '@client/lib/api-client';
import { DiscountCodeField } from './discount-code-field';
import { BundleCards } from './bundle-cards';
import { checkoutPath, readPurchaseIntent, resumePurchaseAfterLogin, savePurchaseIntent } from '../intent';

const FORMAT_ICONS = { hardcover: Book, paperback: BookOpen, ebook: Tablet, audiobook: Headphones } as const;

/** `slug`: a catalogue book's own page sells that book; without it, the featured book (the home page). */
export function PurchaseSection({ slug }: { slug?: string } = {}) {
  const formats = useStoreFormats(slug);
  const auth = useAuthStatus();
  const navigate = useNavigate();
  const [processing, setProcessing] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [discountCode, setDiscountCode] = useState('');
  /** A print format bought a moment ago whose Buy was pressed again: asked before a second copy. */
  const [askRepeat, setAskRepeat] = useState<{ format: StoreFormat; mine: MyFormat } | null>(null);
  const resumed = useRef(false);
  const mine = useMyFormats(auth.isAuthenticated);
  const standingIn = (data: MyFormatsResponse | undefined, format: StoreFormat) =>
    data && data.bookId === formats.data?.book?.id ? data.formats.find((f) => f.format === format.id) : undefined;
  const mineOf = (format: StoreFormat) => standingIn(mine.data, format);

  // A reader who chose a format before signing in (or registering) lands back here signed in: the
  // saved intent resumes the purchase (docs/PRODUCT.md, Purchase intent) instead of making them click again.
  useEffect(() => {
    if (resumed.current || !auth.isAuthenticated) return;
    const intent = readPurchaseIntent();
    if (!intent) return;
    resumed.current = true;
    setProcessing(intent.format);
    void resumePurchaseAfterLogin(navigate).finally(() => setProcessing(null));
  }, [auth.isAuthenticated, navigate]);

  async function buy(format: StoreFormat, options: { confirmRepeat?: boolean } = {}) {
    setProcessing(format.id);
    try {
      const { data: status } = await auth.refetch();
      if (!status?.isAuthenticated) {
        toast({ title: 'Please log in', description: 'Sign in or create an account to buy the book. Your choice is kept.' });
        savePurchaseIntent(format.id, Date.now(), discountCode.trim() || null, slug);
        navigate('/login?returnTo=purchase');
        return;
      }
      const book = formats.data?.book;
      if (!book) {
        toast({ title: 'Book not available', description: 'The book is currently not available for purchase', variant: 'destructive' });
        return;
      }
      if (!status.user?.id) {
        toast({ title: 'User Error', description: 'Could not identify your user account', variant: 'destructive' });
        return;
      }
      if (!(format.price > 0)) {
        toast({ title: 'Invalid Price', description: 'Could not determine the price for this format.', variant: 'destructive' });
        return;
      }
      if (!options.confirmRepeat && !isDigitalFormat(format.id)) {
        // Asked fresh, not from the card's cached answer: it may have been bought a moment ago in another tab.
        const recent = standingIn((await mine.refetch()).data, format);
        if (recent?.recentPurchase) {
          setAskRepeat({ format, mine: recent });
          return;
        }
      }
      navigate(
        checkoutPath({
          amount: format.price,
          title: book.title,
          format: format.id,
          bookId: book.id,
          discountCode: discountCode.trim() || undefined,
          confirmRepeat: options.confirmRepeat,
        }),
      );
    } catch (error) {
      console.error('Purchase failed', error);
      toast({ title: 'Purchase Failed', description: 'An error occurred during purchase. Please try again.', variant: 'destructive' });
    } finally {
      setProcessing(null);
    }
  }

  /** "Add to basket" (issue 26): the visitor's basket is kept in the browser until they sign in. */
  async function addFormatToBasket(format: StoreFormat) {
    const book = formats.data?.book;
    if (!book) return;
    setAdding(format.id);
    try {
      const { data: status } = await auth.refetch();
      const basket = await addToBasket(status?.isAuthenticated === true, { bookId: book.id, format: format.id });
      toast({ title: 'Added to your basket', description: `${book.title} (${formatLabel(format.id)}). Items in your basket: ${basket.count}.` });
    } catch (error) {
      const message = error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again in a moment.';
      toast({ title: 'Not added to your basket', description: message, variant: 'destructive' });
    } finally {
      setAdding(null);
    }
  }

  async function giveAsGift(format: StoreFormat) {
    const { data: status } = await auth.refetch();
    if (!status?.isAuthenticated) {
      toast({ title: 'Please log in', description: 'Sign in or create an account to give the book as a gift.' });
      navigate('/login');
      return;
    }
    const book = formats.data?.book;
    if (!book) return;
    navigate(`${checkoutPath({ amount: format.price, title: book.title, format: format.id, bookId: book.id })}&gift=1`);
  }

  return (
    <section id="purchase" aria-labelledby="purchase-title" className="relative border-b border-ink-800/70">
      <div aria-hidden="true" className="absolute inset-0 bg-[radial-gradient(700px_320px_at_50%_0%,rgb(179_18_31/0.10),transparent_70%)]" />
      <div className="relative mx-auto max-w-7xl px-4 py-20 sm:px-6 md:py-24">
        <div className="max-w-3xl">
          <p className="mb-3 flex items-center gap-3 text-xs font-semibold tracking-[0.3em] text-blood-400 uppercase">
            <span aria-hidden="true" className="h-px w-8 bg-blood-500" />
            Get the book
          </p>
          <h2 id="purchase-title" className="font-display text-3xl font-semibold tracking-tight text-bone-50 md:text-5xl">
            Choose Your Format
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-bone-300">
            Hold it, read it on any device, or let it be read to you in the dark. Digital editions go straight to your library.
          </p>
        </div>

        <div className="mt-12">
          {formats.isPending ? (
            <div className="grid gap-6 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
              <span className="sr-only" role="status">Loading formats</span>
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} className="h-[26rem] w-full rounded-xl" />
              ))}
            </div>
          ) : formats.isError || !formats.data?.formats.length ? (
            <Alert variant="destructive" title="The book is currently not available for purchase">
              <p>Please try again in a moment.</p>
              <Button className="mt-3" size="sm" variant="outline" onClick={() => void formats.refetch()}>
                Try Again
              </Button>
            </Alert>
          ) : (
            <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-4">
              {formats.data.formats.map((format) => (
                <FormatCard
                  key={format.id}
                  format={format}
                  bookId={formats.data.book?.id ?? null}
                  mine={mineOf(format)}
                  processing={processing === format.id}
                  disabled={processing !== null}
                  onBuy={() => void buy(format)}
                  onGift={isDigitalFormat(format.id) ? () => void giveAsGift(format) : undefined}
                  adding={adding === format.id}
                  onAddToBasket={() => void addFormatToBasket(format)}
                />
              ))}
            </ul>
          )}
        </div>

        {formats.data?.formats.length ? <DiscountCodeField value={discountCode} onChange={setDiscountCode} /> : null}

        {/* Drawn in the browser once the section's code is here: the prices depend on who is signed in. */}
        {formats.data?.book ? <BundleCards bookId={formats.data.book.id} /> : null}

        <RepeatPrintDialog
          pending={askRepeat}
          onClose={() => setAskRepeat(null)}
          onConfirm={(format) => {
            setAskRepeat(null);
            void buy(format, { confirmRepeat: true });
          }}
        />

        <p className="mt-10 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-bone-300">
          <Package aria-hidden="true" className="size-4 text-blood-400" />
          Ordering {BULK_ORDER_MIN_COPIES} or more copies for a book club, shop or school? Special pricing is available on bulk orders.
          <a
            href="#contact"
            className="font-medium text-blood-300 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blood-400"
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              scrollToAnchor('contact');
            }}
          >
            Ask about bulk orders
          </a>
        </p>
      </div>
    </section>
  );
}

interface FormatCardProps {
  format: StoreFormat;
  bookId: number | null;
  /** The signed-in reader's standing with this format (owned, bought a moment ago). */
  mine?: MyFormat;
  processing: boolean;
  disabled: boolean;
  onBuy: () => void;
  /** Digital formats may be bought for someone else. */
  onGift?: () => void;
  adding: boolean;
  onAddToBasket: () => void;
}

function FormatCard({ format, bookId, mine, processing, disabled, onBuy, onGift, adding, onAddToBasket }: FormatCardProps) {
  const Icon = FORMAT_ICONS[format.id];
  const digital = isDigitalFormat(format.id);
  // An owned digital format is opened, not bought again (decision 0066); print can always be re-ordered.
  const owned = digital && mine?.owned === true;
  const room = owned && bookId !== null ? roomPath(bookId, format.id) : null;
  return (
    <li
      aria-labelledby={`format-${format.id}-title`}
      className="group flex flex-col rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 transition-colors hover:border-blood-700/70"
    >
      <div className="flex items-start justify-between gap-3">
        <span className="grid size-11 place-items-center rounded-lg border border-ink-600 bg-ink-950 text-blood-400">
          <Icon aria-hidden="true" className="size-5" />
        </span>
        {owned ? (
          <span className="inline-flex items-center gap-1 rounded-full border border-blood-400/50 bg-blood-500/10 px-2.5 py-0.5 text-xs font-medium text-blood-200">
            <Library aria-hidden="true" className="size-3" />
            In your library
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 rounded-full border border-bone-300/30 px-2.5 py-0.5 text-xs text-bone-300">
            {digital ? <Zap aria-hidden="true" className="size-3" /> : <Package aria-hidden="true" className="size-3" />}
            {digital ? 'Instant download' : 'Shipped to you'}
          </span>
        )}
      </div>
      <h3 id={`format-${format.id}-title`} className="mt-5 font-display text-2xl font-semibold text-bone-50">
        {format.title}
      </h3>
      <p className="mt-2 font-display text-4xl font-semibold text-bone-50">{format.displayPrice}</p>
      {format.includesEbook ? (
        <p className="mt-2 flex items-center gap-1.5 text-sm font-medium text-blood-300">
          <Tablet aria-hidden="true" className="size-4" />
          Includes the ebook
        </p>
      ) : null}
      {format.includesPdf ? (
        <p className="mt-2 flex items-center gap-1.5 text-sm font-medium text-blood-300">
          <FileText aria-hidden="true" className="size-4" />
          Includes the PDF edition
        </p>
      ) : null}
      {mine?.recentPurchase ? (
        <p className="mt-3 rounded-md border border-bone-300/20 bg-bone-50/5 px-3 py-2 text-sm text-bone-200">
          <span className="font-medium text-bone-50">{REPEAT_PURCHASE_MESSAGES.recent}</span>
          <span className="block text-bone-400">
            Order <span className="font-mono">{mine.recentPurchase.orderReference}</span> ·{' '}
            <Link to={mine.recentPurchase.confirmationPath} className="text-blood-300 underline-offset-4 hover:underline">
              View order
            </Link>
          </span>
        </p>
      ) : null}
      <ul className="mt-5 flex-1 space-y-2.5 text-sm text-bone-200">
        {format.features.map((feature) => (
          <li key={feature} className="flex gap-2.5">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blood-400" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      {owned ? (
        <div className="mt-7 grid gap-2">
          <p className="text-center text-sm text-bone-300">In your library</p>
          {room ? (
            <Link to={room} className={buttonClasses('primary', 'lg', 'w-full')} aria-label={`${format.id === 'audiobook' ? 'Listen to' : 'Read'} the ${format.title}`}>
              {format.id === 'audiobook' ? <AudioLines aria-hidden="true" /> : <BookText aria-hidden="true" />}
              {format.id === 'audiobook' ? 'Listen' : 'Read'}
            </Link>
          ) : null}
        </div>
      ) : (
      <Button className="mt-7 w-full" size="lg" onClick={onBuy} disabled={disabled} aria-busy={processing || undefined}>
        {processing ? (
          <>
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-bone-50/40 border-t-bone-50" />
            Processing...
          </>
        ) : (
          format.buttonText
        )}
      </Button>
      )}
      {owned ? null : (
        <Button className="mt-3 w-full" variant="outline" onClick={onAddToBasket} disabled={disabled || adding} aria-busy={adding || undefined}>
          <ShoppingBasket aria-hidden="true" />
          Add to basket
        </Button>
      )}
      {onGift ? (
        <Button className="mt-3 w-full" variant="outline" onClick={onGift} disabled={disabled}>
          <Gift aria-hidden="true" />
          Buy as a gift
        </Button>
      ) : null}
    </li>
  );
}

/** "You bought this a moment ago": a second print copy is bought only when the reader says so. */
function RepeatPrintDialog({
  pending,
  onClose,
  onConfirm,
}: {
  pending: { format: StoreFormat; mine: MyFormat } | null;
  onClose: () => void;
  onConfirm: (format: StoreFormat) => void;
}) {
  const recent = pending?.mine.recentPurchase;
  const time = recent ? new Date(recent.purchasedAt).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }) : '';
  return (
    <Dialog open={pending !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{REPEAT_PURCHASE_MESSAGES.recent}</DialogTitle>
          <DialogDescription>
            {pending && recent
              ? `Your ${formatLabel(pending.format.id)} order ${recent.orderReference} went through at ${time}. Do you want to buy another copy?`
              : null}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          {recent ? (
            <Link to={recent.confirmationPath} className={buttonClasses('outline', 'md')}>
              View my order
            </Link>
          ) : null}
          <Button onClick={() => pending && onConfirm(pending.format)}>Buy another copy</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
