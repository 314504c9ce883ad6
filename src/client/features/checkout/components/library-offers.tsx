/**
 * The library's offers (decisions 0083 and 0095): "Add the audiobook for £x" when a bundle holding a
 * format the reader owns sells the formats they lack for less than those cost on their own.
 */
import { Headphones, Layers } from 'lucide-react';
import type { Bundle } from '@shared/schemas/bundles';
import { Button } from '@client/components/ui/button';
import { useNavigate } from '@client/lib/router';
import { useBundles } from '../bundles-api';
import { useAddBundle } from './bundle-cards';

export function LibraryOffers() {
  const bundles = useBundles();
  const navigate = useNavigate();
  // Added, the reader goes to the basket, where Checkout is one press away.
  const { adding, add } = useAddBundle(() => navigate('/basket'));
  const offers = (bundles.data?.bundles ?? []).filter((b): b is Bundle & { addOffer: string } => b.addOffer !== null);
  if (offers.length === 0) return null;
  return (
    <section aria-labelledby="library-offers-title" className="mt-8">
      <h3 id="library-offers-title" className="font-display text-xl font-semibold text-bone-50">
        Complete your set
      </h3>
      <ul className="mt-4 grid gap-4">
        {offers.map((bundle) => {
          const owned = bundle.items.filter((i) => i.owned);
          const Icon = bundle.items.some((i) => !i.owned && i.format === 'audiobook') ? Headphones : Layers;
          return (
            <li
              key={bundle.id}
              aria-labelledby={`offer-${bundle.id}-title`}
              className="flex flex-col gap-4 rounded-xl border border-blood-700/50 bg-[linear-gradient(135deg,rgb(179_18_31/0.12),transparent_60%)] p-5 sm:flex-row sm:items-center"
            >
              <span className="grid size-11 shrink-0 place-items-center rounded-lg border border-ink-600 bg-ink-950 text-blood-400">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0 flex-1">
                <p id={`offer-${bundle.id}-title`} className="font-display text-lg font-semibold text-bone-50">
                  {bundle.addOffer}
                </p>
                <p className="mt-1 text-sm text-bone-300">
                  With the {bundle.name} bundle, less what you paid for the{' '}
                  {owned.map((i) => i.formatLabel.toLowerCase()).join(' and the ')} you own.
                </p>
              </div>
              <Button className="w-full sm:w-auto" onClick={() => add(bundle)} disabled={adding !== null} aria-busy={adding === bundle.id || undefined}>
                Add to basket
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
