/**
 * The upcoming book's purchase area (issue 15 point 4): shown once the admin gives it prices and a
 * release date. Buying goes through the same checkout as the featured book; the server prices it.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { type PreOrderArea as Area, formatReleaseDate } from '@shared/schemas/pre-orders';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { useAuthStatus } from '@client/lib/session';
import { checkoutPath } from '@client/lib/checkout';
import { useNavigate } from '@client/lib/router';

export const PRE_ORDER_KEY = ['/api/store/pre-order'] as const;

export function PreOrderArea() {
  const area = useQuery<Area | null>({ queryKey: PRE_ORDER_KEY });
  const auth = useAuthStatus();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  if (!area.data) return null;
  const { book, formats, releaseAt, released } = area.data;

  const order = async (format: Area['formats'][number]) => {
    setBusy(format.id);
    try {
      const { data: status } = await auth.refetch();
      if (!status?.isAuthenticated) {
        toast({ title: 'Please log in', description: 'Sign in or create an account to pre-order the book.' });
        navigate('/login');
        return;
      }
      navigate(checkoutPath({ amount: format.price, title: book.title, format: format.id, bookId: book.id }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div aria-labelledby="pre-order-title" role="region" className="mt-10 rounded-xl border border-ink-700 bg-ink-900/80 p-5 sm:p-6">
      <h3 id="pre-order-title" className="flex items-center gap-2 font-display text-xl font-semibold text-bone-50">
        <CalendarClock aria-hidden="true" className="size-5 text-blood-400" />
        {released ? `Out now: ${formatReleaseDate(releaseAt)}` : `Pre-order: out on ${formatReleaseDate(releaseAt)}`}
      </h3>
      <p className="mt-1 text-sm text-bone-400">
        {released
          ? 'Digital editions go straight to your library.'
          : 'Pay today; digital editions open in your library on the release day, and we email you when they do.'}
      </p>
      <ul className="mt-5 grid gap-3 sm:grid-cols-2">
        {formats.map((format) => (
          <li key={format.id} className="flex items-center justify-between gap-3 rounded-lg border border-ink-700 bg-ink-950/60 px-4 py-3">
            <span>
              <span className="block font-medium text-bone-50">{format.title}</span>
              <span className="block text-sm text-bone-300">{format.displayPrice}</span>
            </span>
            <Button
              size="sm"
              onClick={() => void order(format)}
              disabled={busy !== null}
              aria-busy={busy === format.id || undefined}
              aria-label={`${released ? 'Buy' : 'Pre-order'} ${format.title}`}
            >
              {released ? 'Buy now' : 'Pre-order'}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
