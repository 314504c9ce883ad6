/**
 * The newsletter section (docs/PRODUCT.md, Newsletter) (the Thriller Circle): subscribe by email ("Subscribing..." while busy, the
 * email cleared on success), plus the demo reader's Login (hidden when the operator turned it off) and Logout.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LogIn, LogOut, Mail } from 'lucide-react';
import { NEWSLETTER_EMAIL_PATTERN } from '@shared/schemas/newsletter-email';
import type { SiteAnswer } from '@shared/schemas/site';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/toast-store';
import { useAuthStatus } from '@client/lib/session';
import { demoLogin, demoLogout, subscribeToNewsletter } from '../api';

export const NEWSLETTER_EMAIL_ID = 'newsletter-email';

export function NewsletterSection({ demo }: { demo: SiteAnswer['demoLogin'] | undefined }) {
  const queryClient = useQueryClient();
  const { isAuthenticated } = useAuthStatus();
  const [email, setEmail] = useState('');
  const [subscribing, setSubscribing] = useState(false);
  const [authBusy, setAuthBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!value || !NEWSLETTER_EMAIL_PATTERN.test(value)) {
      toast({ title: 'Invalid Email', description: 'Please enter a valid email address', variant: 'destructive' });
      return;
    }
    setSubscribing(true);
    try {
      const answer = await subscribeToNewsletter(value);
      const points = answer.pointsEarned > 0 && !answer.message.includes('points') ? ` You earned ${answer.pointsEarned} points!` : '';
      toast({ title: 'Subscribed Successfully', description: `${answer.message}${points}` });
      setEmail('');
    } catch (error) {
      console.error('Subscription failed', error);
      toast({
        title: 'Subscription Failed',
        description: 'There was an error subscribing to the newsletter. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setSubscribing(false);
    }
  };

  const runAuth = async (action: () => Promise<unknown>) => {
    setAuthBusy(true);
    try {
      await action();
    } finally {
      setAuthBusy(false);
    }
  };

  return (
    <section id="newsletter-section" aria-labelledby="newsletter-title" className="relative overflow-hidden border-b border-ink-800/70">
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-[radial-gradient(700px_320px_at_50%_0%,rgb(179_18_31/0.22),transparent_70%)]" />
      <div className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6 md:py-24">
        <p className="mb-3 text-xs font-semibold tracking-[0.3em] text-blood-400 uppercase">Newsletter</p>
        <h2 id="newsletter-title" className="font-display text-3xl font-semibold tracking-tight text-bone-50 md:text-5xl">
          Join the Thriller Circle
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg leading-relaxed text-bone-300">
          News of the next novel, early extracts, events and giveaways, straight to your inbox. Signed-in readers earn points for joining.
        </p>
        <form noValidate onSubmit={onSubmit} className="mx-auto mt-8 flex max-w-xl flex-col gap-3 sm:flex-row" aria-label="Subscribe to the newsletter">
          <Label htmlFor={NEWSLETTER_EMAIL_ID} className="sr-only">
            Email address
          </Label>
          <Input
            id={NEWSLETTER_EMAIL_ID}
            type="email"
            name="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="h-12 text-base"
          />
          <Button type="submit" size="lg" disabled={subscribing} className="shrink-0">
            <Mail aria-hidden="true" />
            {subscribing ? 'Subscribing...' : 'Subscribe'}
          </Button>
        </form>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3 text-sm text-bone-400">
          {isAuthenticated ? (
            <Button variant="ghost" size="sm" disabled={authBusy} onClick={() => runAuth(() => demoLogout(queryClient))}>
              <LogOut aria-hidden="true" />
              Logout
            </Button>
          ) : demo ? (
            <>
              <span>Just looking around?</span>
              <Button
                variant="outline"
                size="sm"
                disabled={authBusy}
                aria-describedby="demo-login-note"
                onClick={() => runAuth(() => demoLogin(queryClient, demo))}
              >
                <LogIn aria-hidden="true" />
                Demo Login
              </Button>
              <p id="demo-login-note" className="flex w-full items-center justify-center gap-2 text-xs text-bone-400">
                <span aria-hidden="true" className="rounded-full border border-bone-300/40 px-2 py-0.5 font-medium tracking-wide text-bone-200">
                  Demo
                </span>
                Demo feature: signs you in as a sample reader. It is off in production.
              </p>
            </>
          ) : null}
        </div>
      </div>
    </section>
  );
}
