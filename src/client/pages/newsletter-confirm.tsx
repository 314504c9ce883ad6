/**
 * /newsletter/confirm?token (decision 0069): the page behind "Confirm your subscription" in the welcome
 * mail. Opening it changes nothing (mail scanners open links too); only the reader's press of the button
 * posts the token and confirms. Pressing it again, or opening an old mail, is harmless.
 */
import { useState } from 'react';
import { CheckCircle2, MailCheck } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { PressToUseLink, RefusedLink } from '@client/components/layout/one-use-link';
import { buttonClasses } from '@client/components/ui/button';
import { confirmSubscription } from '@client/features/newsletter/api';
import { ApiError, NO_ANSWER_MESSAGE as NO_ANSWER, errorMessage, isFinalRefusal } from '@client/lib/api-errors';
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
      if (error instanceof ApiError && isFinalRefusal(error.status)) setView({ kind: 'refused', message: errorMessage(error, INCOMPLETE) });
      else setView({ kind: 'failed', message: errorMessage(error, NO_ANSWER) });
    }
  };

  const home = (
    <Link to="/" className={buttonClasses('outline', 'md', 'w-fit')}>
      Go to the home page
    </Link>
  );

  if (!token || view.kind === 'refused') {
    return (
      <RefusedLink eyebrow="The Thriller Circle" title="Confirm your subscription" message={view.kind === 'refused' ? view.message : INCOMPLETE}>
        {home}
      </RefusedLink>
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

  return (
    <PressToUseLink
      eyebrow="The Thriller Circle"
      title="Confirm your subscription"
      intro="Press the button to confirm that you want the Thriller Circle newsletter at this address. Nothing is sent until you do."
      icon={MailCheck}
      label="Confirm your subscription"
      busyLabel="Confirming..."
      busy={view.kind === 'confirming'}
      failure={view.kind === 'failed' ? view.message : null}
      note="If you did not sign up, ignore the email: you will not be sent anything more."
      onPress={() => void confirm()}
    />
  );
}
