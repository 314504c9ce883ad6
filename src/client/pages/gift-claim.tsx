/**
 * /gift/:token (issue 15 point 3): the claim link. Opening it only shows the gift; "Claim your gift"
 * puts it in the signed-in reader's library, whatever email their account has. Signed-out readers sign
 * in or register and come back here.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Gift, LogIn, UserPlus } from 'lucide-react';
import { GIFT_CLAIM_MESSAGES } from '@shared/schemas/gifts';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/toast-store';
import { useAuthStatus } from '@client/features/auth/api';
import { claimGift, giftKey, useGift } from '@client/features/gifts/api';
import { rememberGiftPath } from '@client/features/gifts/return-path';
import { errorMessage } from '@client/lib/api-errors';
import { LIBRARY_KEY } from '@client/features/library/api';
import { Link, useNavigate, useParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function GiftClaimPage() {
  useDocumentTitle('Your gift');
  const { token = '' } = useParams();
  const gift = useGift(token);
  const auth = useAuthStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [claiming, setClaiming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const claim = async () => {
    setClaiming(true);
    setError(null);
    try {
      const result = await claimGift(token);
      await queryClient.invalidateQueries({ queryKey: LIBRARY_KEY });
      toast({ title: 'Gift claimed', description: result.message });
      navigate(result.redirectTo);
    } catch (err) {
      const message = errorMessage(err, 'The gift could not be claimed. Please try again.');
      setError(message);
      setClaiming(false);
      void queryClient.invalidateQueries({ queryKey: giftKey(token) });
    }
  };

  const goSignIn = () => {
    rememberGiftPath(`/gift/${token}`);
    navigate('/login?returnTo=gift');
  };

  return (
    <PageShell width="narrow" eyebrow="A gift for you" title="Your gift">
      {gift.isPending ? (
        <div role="status" aria-label="Loading your gift" className="grid gap-4">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-12 w-48" />
        </div>
      ) : gift.isError ? (
        <div className="grid gap-6">
          <Alert variant="destructive" title="This gift link does not work">
            {gift.error.message}
          </Alert>
          <Link to="/" className={buttonClasses('outline', 'md', 'w-fit')}>
            Go to the home page
          </Link>
        </div>
      ) : (
        <article className="grid gap-6 rounded-xl border border-ink-700 bg-ink-900/80 p-6 sm:grid-cols-[9rem_1fr] sm:p-8">
          <img
            src={gift.data.book.coverImage}
            alt={`Cover of ${gift.data.book.title}`}
            className="w-32 rounded-md border border-ink-600 shadow-lg shadow-black/40 sm:w-36"
          />
          <div className="grid content-start gap-4">
            <p className="flex items-center gap-2 text-sm font-semibold tracking-[0.2em] text-blood-400 uppercase">
              <Gift aria-hidden="true" className="size-4" />
              From {gift.data.from}
            </p>
            <h2 className="font-display text-3xl font-semibold text-bone-50">{gift.data.book.title}</h2>
            <p className="text-bone-300">
              {gift.data.formatLabel} · for {gift.data.recipientName}
            </p>
            {gift.data.message ? (
              <blockquote className="border-l-2 border-blood-500 pl-4 font-display text-lg whitespace-pre-line text-bone-100 italic">
                {gift.data.message}
              </blockquote>
            ) : null}
            {gift.data.state === 'claimed' ? (
              <Alert title="Already claimed">{GIFT_CLAIM_MESSAGES.claimed}</Alert>
            ) : gift.data.state === 'refunded' ? (
              <Alert variant="destructive" title="No longer available">
                {GIFT_CLAIM_MESSAGES.refunded}
              </Alert>
            ) : auth.isPending ? (
              <Skeleton className="h-12 w-48" />
            ) : auth.isAuthenticated ? (
              <div className="grid gap-2">
                <Button size="lg" className="w-full sm:w-fit" onClick={() => void claim()} disabled={claiming} aria-busy={claiming || undefined}>
                  <Gift aria-hidden="true" />
                  {claiming ? 'Claiming...' : 'Claim your gift'}
                </Button>
                <p className="text-sm text-bone-400">It goes into the library of the account you are signed in with.</p>
              </div>
            ) : (
              <div className="grid gap-3">
                <p className="text-bone-200">Sign in or create a free account to claim your gift. Any email address will do.</p>
                <div className="flex flex-wrap gap-3">
                  <Button onClick={goSignIn}>
                    <LogIn aria-hidden="true" />
                    Sign in
                  </Button>
                  <Button variant="outline" onClick={goSignIn}>
                    <UserPlus aria-hidden="true" />
                    Create an account
                  </Button>
                </div>
              </div>
            )}
            {error ? (
              <p role="alert" className="text-sm text-blood-300">
                {error}
              </p>
            ) : null}
          </div>
        </article>
      )}
    </PageShell>
  );
}
