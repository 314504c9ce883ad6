/**
 * /basket (issue 26 points 1, 4 and 5): the lines with cover, title, format, unit price, quantity and line
 * total; for print, the destination country; the discount code box; the shipping, tax and totals as the
 * server works them out for Checkout; and "Checkout". A visitor's basket is kept in the browser; Checkout
 * asks them to sign in, and their lines join the account's basket when they come back signed in.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from '@client/lib/router';
import { Lock, Trash2, Truck } from 'lucide-react';
import { MAX_PRINT_QUANTITY, type Basket, type BasketLine, type BasketShipping } from '@shared/schemas/basket';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { toast } from '@client/components/ui/toast-store';
import { ApiError } from '@client/lib/api-client';
import { useAuthStatus } from '@client/lib/session';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { DiscountCodeField } from '@client/features/checkout/components/discount-code-field';
import {
  type LineRef,
  checkoutBasket,
  fetchBasket,
  joinVisitorBasket,
  readShippingCountry,
  readVisitorLines,
  removeLine,
  setLineQuantity,
  writeShippingCountry,
} from '@client/features/checkout/basket';

const messageOf = (error: unknown) =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Something went wrong. Please try again in a moment.';

const refOf = (line: BasketLine): LineRef =>
  line.id !== null ? { id: line.id } : line.bundle ? { bundleId: line.bundle.id } : { bookId: line.bookId, format: line.format };

/** A print basket can be paid once it has a destination some zone covers. */
const shipsSomewhere = (shipping: BasketShipping | null) => shipping === null || shipping.description !== null;

export default function BasketPage() {
  useDocumentTitle('Your basket');
  const auth = useAuthStatus();
  const navigate = useNavigate();
  const signedIn = auth.data?.isAuthenticated === true;
  const [basket, setBasket] = useState<Basket | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [country, setCountry] = useState(readShippingCountry);
  const [busy, setBusy] = useState(false);
  const joined = useRef(false);

  const load = useCallback(
    async (discountCode: string, destination: string) => {
      try {
        setBasket(await fetchBasket(signedIn, discountCode, destination));
        setError(null);
      } catch (e) {
        setError(messageOf(e));
      }
    },
    [signedIn],
  );

  useEffect(() => {
    if (auth.isPending) return;
    void (async () => {
      if (signedIn && !joined.current && readVisitorLines().length > 0) {
        joined.current = true;
        const refused = await joinVisitorBasket();
        for (const message of refused) toast({ title: 'Not kept in your basket', description: message, variant: 'destructive' });
      }
      await load('', readShippingCountry());
    })();
  }, [auth.isPending, signedIn, load]);

  const appliedCode = basket?.discountCode ?? '';

  async function change(action: () => Promise<Basket>) {
    setBusy(true);
    try {
      const changed = await action();
      // The change's answer knows no code nor destination: with either, the basket is asked again so the
      // discount, shipping and tax follow the new quantities.
      const again = appliedCode !== '' || (changed.shipping !== null && country !== '');
      setBasket(again ? await fetchBasket(signedIn, appliedCode, country) : changed);
      setError(null);
    } catch (e) {
      toast({ title: 'Your basket was not changed', description: messageOf(e), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  async function applyCode() {
    setBusy(true);
    await load(code, country);
    setBusy(false);
  }

  async function chooseCountry(next: string) {
    setCountry(next);
    writeShippingCountry(next);
    setBusy(true);
    await load(appliedCode, next);
    setBusy(false);
  }

  async function checkout() {
    if (!signedIn) {
      toast({ title: 'Please log in', description: 'Sign in or create an account to check out. Your basket is kept.' });
      navigate('/login?returnTo=basket');
      return;
    }
    setBusy(true);
    try {
      const shippingCountry = basket?.shipping && country ? country : undefined;
      const { url } = await checkoutBasket({ discountCode: code.trim() || undefined, shippingCountry });
      // The payment page replaces the basket in history, so Back never lands on a spent checkout.
      if (/^https?:/i.test(url)) window.location.assign(url);
      else navigate(url, { replace: true });
    } catch (e) {
      // A changed price is now shown in the basket (the next Checkout charges it); the refusal stays above.
      await load(code, country);
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  const blocked = signedIn && basket !== null && !shipsSomewhere(basket.shipping);

  return (
    <PageShell eyebrow="Your basket" title="Basket" width="wide">
      {error ? (
        <Alert variant="destructive" title="Your basket" className="mb-6">
          <p>{error}</p>
        </Alert>
      ) : null}
      {basket === null ? (
        <p role="status" className="text-bone-300">
          Loading your basket
        </p>
      ) : basket.lines.length === 0 ? (
        <p className="text-bone-300">Your basket is empty.</p>
      ) : (
        <div className="grid items-start gap-10 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <section aria-labelledby="basket-items-title">
            <h2 id="basket-items-title" className="sr-only">
              Items in your basket
            </h2>
            <ul className="divide-y divide-ink-700 border-y border-ink-700">
              {basket.lines.map((line) => (
                <BasketLineRow key={line.bundle ? `bundle-${line.bundle.id}` : `${line.bookId}-${line.format}`} line={line} busy={busy} onChange={change} />
              ))}
            </ul>
          </section>

          <aside aria-labelledby="basket-summary-title" className="rounded-xl border border-ink-700 bg-ink-900/80 p-6 lg:sticky lg:top-24">
            <h2 id="basket-summary-title" className="font-display text-xl font-semibold text-bone-50">
              Order summary
            </h2>
            {basket.shipping ? (
              <CountryPicker shipping={basket.shipping} value={country} disabled={busy} onChange={(c) => void chooseCountry(c)} />
            ) : null}
            {signedIn ? (
              <div className="flex items-end gap-3 [&>div]:mt-6 [&>div]:flex-1">
                <DiscountCodeField value={code} onChange={setCode} />
                <Button variant="outline" disabled={busy || !code.trim()} onClick={() => void applyCode()}>
                  Apply
                </Button>
              </div>
            ) : null}
            <Totals basket={basket} />
            <Button className="mt-6 w-full" size="lg" disabled={busy || blocked} onClick={() => void checkout()}>
              <Lock aria-hidden="true" />
              Checkout
            </Button>
            {blocked && !basket.shipping?.problem ? (
              <p className="mt-3 text-center text-xs text-bone-400">Choose where your printed books go to see the shipping and check out.</p>
            ) : null}
          </aside>
        </div>
      )}
    </PageShell>
  );
}

function BasketLineRow({ line, busy, onChange }: { line: BasketLine; busy: boolean; onChange: (action: () => Promise<Basket>) => Promise<void> }) {
  const name = `${line.title} (${line.formatLabel})`;
  return (
    <li className="flex gap-4 py-5" data-testid="basket-line">
      <img src={line.coverImage} alt="" className="h-24 w-16 shrink-0 rounded-sm border border-ink-700 object-cover shadow-md shadow-black/40" />
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <p className="font-medium text-bone-50">{line.title}</p>
          <p className="mt-1 text-sm text-bone-400">
            {line.formatLabel} · {line.displayUnitPrice} each
          </p>
          {line.bundle ? <BundleParts parts={line.bundle.parts} /> : null}
          {line.problem ? <p className="mt-2 text-sm text-blood-300">{line.problem}</p> : null}
        </div>
        <div className="flex items-center gap-4">
          {line.digital || line.bundle ? (
            <span className="w-20 text-sm text-bone-400">Qty 1</span>
          ) : (
            <Select
              aria-label={`Quantity of ${name}`}
              value={line.quantity}
              disabled={busy}
              className="w-20"
              onChange={(e) => void onChange(() => setLineQuantity(refOf(line), Number(e.target.value)))}
            >
              {Array.from({ length: MAX_PRINT_QUANTITY }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Select>
          )}
          <span className="ml-auto min-w-20 text-right font-medium text-bone-50 tabular-nums sm:ml-0">
            <span className="sr-only">Line total </span>
            {line.displayLineTotal}
          </span>
          <Button variant="ghost" size="icon" disabled={busy} aria-label={`Remove ${name}`} onClick={() => void onChange(() => removeLine(refOf(line)))}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
    </li>
  );
}

/** The destination of the printed books: the countries of the author's shipping zones. */
function CountryPicker({ shipping, value, disabled, onChange }: { shipping: BasketShipping; value: string; disabled: boolean; onChange: (country: string) => void }) {
  const id = useId();
  const listed = shipping.countries.some((c) => c.code === value);
  return (
    <div className="mt-6 grid gap-2">
      <Label htmlFor={id} className="flex items-center gap-2">
        <Truck aria-hidden="true" className="size-4 text-blood-400" />
        Ship printed books to
      </Label>
      <Select id={id} value={listed ? value : ''} disabled={disabled} aria-invalid={shipping.problem ? true : undefined} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose a country</option>
        {shipping.countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </Select>
      {shipping.problem ? (
        <p role="alert" className="text-sm text-blood-300">
          {shipping.problem}
        </p>
      ) : null}
    </div>
  );
}

/** Subtotal, discount, shipping, then net and tax as the receipt splits them, and the total. */
function Totals({ basket }: { basket: Basket }) {
  const row = 'flex justify-between gap-4';
  const { shipping } = basket;
  return (
    <dl className="mt-6 grid gap-2 border-t border-ink-700 pt-4 text-sm text-bone-300" data-testid="basket-totals">
      <div className={row}>
        <dt>Subtotal</dt>
        <dd className="tabular-nums">{basket.displaySubtotal}</dd>
      </div>
      {basket.discount > 0 ? (
        <div className={row}>
          <dt>Discount{basket.discountCode ? ` (code ${basket.discountCode})` : ''}</dt>
          <dd className="tabular-nums" data-testid="basket-discount">
            -{basket.displayDiscount}
          </dd>
        </div>
      ) : null}
      {shipping ? (
        <div className={row} data-testid="basket-shipping">
          <dt>{shipping.description ?? 'Shipping'}</dt>
          <dd className="text-right tabular-nums">
            {shipping.description === null ? <span className="text-bone-400">Choose a country</span> : shipping.free ? 'Free' : shipping.displayAmount}
          </dd>
        </div>
      ) : null}
      {basket.taxAtPayment ? (
        <div className={row}>
          <dt>Tax</dt>
          <dd className="text-bone-400">Worked out at payment</dd>
        </div>
      ) : basket.tax > 0 ? (
        <>
          <div className={row}>
            <dt>Net</dt>
            <dd className="tabular-nums" data-testid="basket-net">
              {basket.displayNet}
            </dd>
          </div>
          <div className={row}>
            <dt>{basket.pricesIncludeTax ? 'Tax included' : 'Tax'}</dt>
            <dd className="tabular-nums" data-testid="basket-tax">
              {basket.displayTax}
            </dd>
          </div>
        </>
      ) : null}
      <div className="mt-2 flex justify-between gap-4 border-t border-ink-700 pt-3 text-base font-semibold text-bone-50">
        <dt>Total</dt>
        <dd className="tabular-nums" data-testid="basket-total">
          {basket.displayTotal}
        </dd>
      </div>
    </dl>
  );
}

/** A bundle line's formats; one already owned is not charged again ("Complete your set"). */
function BundleParts({ parts }: { parts: NonNullable<BasketLine['bundle']>['parts'] }) {
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-bone-400">
      {parts.map((p) => (
        <li key={`${p.bookId}-${p.format}`}>
          {p.title} ({p.formatLabel}){p.owned ? ' · in your library' : ''}
        </li>
      ))}
    </ul>
  );
}
