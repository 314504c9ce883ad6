/**
 * /newsletter/confirm?token (decision 0069): the page behind "Confirm your subscription" in the welcome
 * mail. Opening it changes nothing (mail scanners open links too); only the reader's press of the button
 * posts the token and confirms. Pressing it again, or opening an old mail, is harmless.
 */
import { useState } from 'react';
import { CheckCircle2, MailCheck } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { confirmSubscription } from '@client/features/newsletter/api';
import { ApiError, errorMessage } from '@client/lib/api-errors';
import { Link, useSearchParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';

type View =
  | { kind: 'ready' }
  | { kind: 'confirming' }
  | { kind: 'done'; already: boolean; message: string }
  /** The server refused the link: pressing again cannot help. */
  | { kind: 'refused'; message: string }
  /** No answer (offline): the button stays, to try again. */
  | { kind: 'failed'; message: string };

const INCOMPLETE = 'This confirmation link is not complete. Please use the link from your welcome email.';
const NO_ANSWER = 'We could not reach the website. Please check your connection and try again.';

export default function NewsletterConfirmPage() {
  useDocumentTitle('Confirm your subscription');
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const [view, setView] = useState<View>({ kind: 'ready' });

  const confirm = async () => {
    setView({ kind: 'confirming' });
    try {
      const answer = await confirmSubscription(token);
      setView({ kind: 'done', already: answer.status === 'already', message: answer.message });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) setView({ kind: 'refused', message: errorMessage(error, INCOMPLETE) });
      else setView({ kind: 'failed', message: errorMessage(error, NO_ANSWER) });
    }
  };

  const home = (
    <Link to="/" className={buttonClasses('outline', 'md', 'w-fit')}>
      Go to the home page
    </Link>
  );

  if (!token) {
    return (
      <PageShell width="narrow" eyebrow="The Thriller Circle" title="Confirm your subscription">
        <div className="grid gap-6">
          <Alert variant="destructive" title="This link does not work">
            {INCOMPLETE}
          </Alert>
          {home}
        </div>
      </PageShell>
    );
  }

  if (view.kind === 'done') {
    return (
      <PageShell width="narrow" eyebrow="The Thriller Circle" title={view.already ? 'Already confirmed' : 'Subscription confirmed'}>
        <div className="grid gap-6">
          <p className="flex items-start gap-3 text-lg text-bone-100" role="status">
            <CheckCircle2 aria-hidden="true" className="mt-1 size-5 shrink-0 text-emerald-400" />
            {view.message}
          </p>
          {home}
        </div>
      </PageShell>
    );
  }

  if (view.kind === 'refused') {
    return (
      <PageShell width="narrow" eyebrow="The Thriller Circle" title="Confirm your subscription">
        <div className="grid gap-6">
          <Alert variant="destructive" title="This link does not work">
            {view.message}
          </Alert>
          {home}
        </div>
      </PageShell>
    );
  }

  const busy = view.kind === 'confirming';
  return (
    <PageShell
      width="narrow"
      eyebrow="The Thriller Circle"
      title="Confirm your subscription"
      intro="Press the button to confirm that you want the Thriller Circle newsletter at this address. Nothing is sent until you do."
    >
      <div className="grid gap-4">
        <Button size="lg" className="w-full sm:w-fit" onClick={() => void confirm()} disabled={busy} aria-busy={busy || undefined}>
          <MailCheck aria-hidden="true" />
          {busy ? 'Confirming...' : 'Confirm your subscription'}
        </Button>
        {view.kind === 'failed' ? (
          <p role="alert" className="text-sm text-blood-300">
            {view.message}
          </p>
        ) : null}
        <p className="text-sm text-bone-400">If you did not sign up, ignore the email: you will not be sent anything more.</p>
      </div>
    </PageShell>
  );
}
