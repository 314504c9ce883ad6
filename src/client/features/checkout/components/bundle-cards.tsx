/**
 * Bundle cards (issue 26 point 2, decisions 0083 and 0095): the name, the formats it holds, its price and,
 * for a reader who owns part of it, "Complete your set: £x"; "Add to basket" puts it in as one line. They
 * live in the purchase section's and the catalogue's own code, never in the home page's first view.
 */
import { useState } from 'react';
import { Check, Layers, Library, ShoppingBasket } from 'lucide-react';
import { formatPrice } from '@shared/constants';
import type { Bundle } from '@shared/schemas/bundles';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { ApiError } from '@client/lib/api-client';
import { useAuthStatus } from '@client/lib/session';
import { addToBasket } from '../basket';
import { useBundles } from '../bundles-api';

/**
 * What the formats the reader lacks cost bought one by one (every format, for a visitor); null when one
 * of them has no price of its own. The saving is against this, not against formats already paid for.
 */
function separately(bundle: Bundle): number | null {
  const missing = bundle.items.filter((i) => !i.owned);
  if (missing.some((i) => i.listPrice === null)) return null;
  return missing.reduce((sum, i) => sum + (i.listPrice ?? 0), 0);
}

export interface BundleCardsProps {
  /** Only bundles holding a format of this book (a book's purchase section); every bundle without it. */
  bookId?: number | null;
  /** The heading's id, for the section's label. */
  headingId?: string;
  /**
   * The level of the "Bundles" heading, so it fits the page's outline: 3 under the purchase section's
   * heading, 2 on a page where the bundles are a section of their own. Each bundle's name is one below.
   */
  headingLevel?: 2 | 3;
}

/** "Add to basket" for a bundle: one line of one, kept in the browser for a visitor (decision 0095). */
export function useAddBundle(onAdded?: (bundle: Bundle) => void) {
  const auth = useAuthStatus();
  const [adding, setAdding] = useState<number | null>(null);
  async function add(bundle: Bundle) {
    setAdding(bundle.id);
    try {
      const { data: status } = await auth.refetch();
      const basket = await addToBasket(status?.isAuthenticated === true, { bundleId: bundle.id });
      toast({ title: 'Added to your basket', description: `${bundle.name}. Items in your basket: ${basket.count}.` });
      onAdded?.(bundle);
    } catch (error) {
      const message = error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again in a moment.';
      toast({ title: 'Not added to your basket', description: message, variant: 'destructive' });
    } finally {
      setAdding(null);
    }
  }
  return { adding, add: (bundle: Bundle) => void add(bundle) };
}

/** The bundles on sale, or nothing at all while they load, when there are none, or when they fail to load. */
export function BundleCards({ bookId, headingId = 'bundles-title', headingLevel = 3 }: BundleCardsProps) {
  const bundles = useBundles();
  const { adding, add } = useAddBundle();
  const shown = (bundles.data?.bundles ?? []).filter((b) => bookId == null || b.items.some((i) => i.bookId === bookId));
  if (shown.length === 0) return null;

  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={headingId} className="mt-14">
      <Heading id={headingId} className="flex items-center gap-3 font-display text-2xl font-semibold text-bone-50 md:text-3xl">
        <Layers aria-hidden="true" className="size-6 text-blood-400" />
        Bundles
      </Heading>
      <ul className="mt-6 grid gap-6 md:grid-cols-2">
        {shown.map((bundle) => (
          <BundleCard
            key={bundle.id}
            bundle={bundle}
            adding={adding === bundle.id}
            disabled={adding !== null}
            onAdd={() => add(bundle)}
            headingLevel={headingLevel === 2 ? 3 : 4}
          />
        ))}
      </ul>
    </section>
  );
}

export interface BundleCardProps {
  bundle: Bundle;
  adding: boolean;
  disabled: boolean;
  onAdd: () => void;
  /** The level of the bundle's name: one below the "Bundles" heading. */
  headingLevel?: 3 | 4;
}

export function BundleCard({ bundle, adding, disabled, onAdd, headingLevel = 4 }: BundleCardProps) {
  const Name = headingLevel === 3 ? 'h3' : 'h4';
  const titleId = `bundle-${bundle.id}-title`;
  const alone = separately(bundle);
  const saving = alone !== null && alone > bundle.yourPrice ? alone - bundle.yourPrice : 0;
  const partial = bundle.completeYourSet !== null;
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-col rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 transition-colors hover:border-blood-700/70"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <Name id={titleId} className="font-display text-2xl font-semibold text-bone-50">
          {bundle.name}
        </Name>
        {saving > 0 && !bundle.ownedWhole ? (
          <span className="rounded-full border border-blood-400/50 bg-blood-500/10 px-2.5 py-0.5 text-xs font-medium whitespace-nowrap text-blood-200">
            Save {formatPrice(saving)}
          </span>
        ) : null}
      </div>
      <ul aria-label={`In ${bundle.name}`} className="mt-4 flex-1 space-y-2 text-sm text-bone-200">
        {bundle.items.map((item) => (
          <li key={`${item.bookId}-${item.format}`} className="flex items-start gap-2.5">
            {item.owned ? (
              <Library aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-bone-400" />
            ) : (
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blood-400" />
            )}
            <span className={item.owned ? 'text-bone-400' : undefined}>
              <span className="font-medium text-bone-50">{item.title}</span> · {item.formatLabel}
              {item.listPrice !== null ? <span className="text-bone-400"> ({formatPrice(item.listPrice)})</span> : null}
              {item.owned ? <span className="ml-2 text-xs text-bone-400">In your library</span> : null}
            </span>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap items-end gap-x-3 gap-y-1">
        {partial ? (
          <>
            <p className="font-display text-3xl font-semibold text-bone-50">{bundle.displayYourPrice}</p>
            <p className="pb-1 text-sm text-bone-400">
              <span className="sr-only">Bundle price </span>
              <s>{bundle.displayPrice}</s>
            </p>
          </>
        ) : (
          <p className="font-display text-3xl font-semibold text-bone-50">{bundle.displayPrice}</p>
        )}
      </div>
      {partial ? <p className="mt-2 text-sm font-medium text-blood-300">{bundle.completeYourSet}</p> : null}
      {bundle.ownedWhole ? (
        <p className="mt-6 text-center text-sm text-bone-300">Every format of this bundle is in your library</p>
      ) : (
        <Button className="mt-6 w-full" variant="outline" onClick={onAdd} disabled={disabled} aria-busy={adding || undefined} aria-label={`Add ${bundle.name} to basket`}>
          <ShoppingBasket aria-hidden="true" />
          Add to basket
        </Button>
      )}
    </li>
  );
}
