/**
 * /login-link?token[&returnTo] (decision 0084): the page an emailed sign-in link opens. Opening it signs no
 * one in (mail scanners open links too); only the reader's press of "Sign in" posts the token, which starts
 * the same session as a password sign-in and then goes where the login page would go.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LogIn } from 'lucide-react';
import { LOGIN_REDIRECT_DELAY_MS } from '@shared/constants';
import { PressToUseLink, RefusedLink } from '@client/components/layout/one-use-link';
import { buttonClasses } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { afterSignIn, signInWithLinkRequest } from '@client/features/auth/account-calls';
import { readReturnTo } from '@client/features/auth/query-params';
import { NO_ANSWER_MESSAGE as NO_ANSWER, isFinalRefusal } from '@client/lib/api-errors';
import { Link, useNavigate, useSearchParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { redirectAfterLogin } from './login-redirect';

const INCOMPLETE = 'This sign-in link is not complete. Please use the link from your email, or ask for a new one.';

type View = { kind: 'ready' } | { kind: 'signing-in' } | { kind: 'refused'; message: string } | { kind: 'failed'; message: string };

export default function LoginLinkPage() {
  useDocumentTitle('Sign In');
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const returnTo = readReturnTo(params);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>({ kind: 'ready' });

  const signIn = async () => {
    setView({ kind: 'signing-in' });
    const result = await signInWithLinkRequest(token);
    if (result.kind === 'network') {
      setView({ kind: 'failed', message: NO_ANSWER });
      return;
    }
    if (result.kind === 'failed') {
      // A refused link stays refused; a busy server (429, 5xx) may answer a second press.
      if (isFinalRefusal(result.status)) setView({ kind: 'refused', message: result.message ?? INCOMPLETE });
      else setView({ kind: 'failed', message: result.message ?? NO_ANSWER });
      return;
    }
    await afterSignIn(queryClient, result.data.token);
    toast({ title: 'Login Successful', description: 'Welcome back!' });
    await new Promise((resolve) => setTimeout(resolve, LOGIN_REDIRECT_DELAY_MS));
    await redirectAfterLogin(result.data.user.role, returnTo, navigate);
  };

  const again = (
    <Link to={returnTo ? `/login?returnTo=${returnTo}` : '/login'} className={buttonClasses('outline', 'md', 'w-fit')}>
      Go to Sign In
    </Link>
  );

  if (!token || view.kind === 'refused') {
    return (
      <RefusedLink eyebrow="Your Account" title="Sign in" message={view.kind === 'refused' ? view.message : INCOMPLETE}>
        {again}
      </RefusedLink>
    );
  }

  return (
    <PressToUseLink
      eyebrow="Your Account"
      title="Sign in"
      intro="Press the button to sign in with the link from your email. It works once."
      icon={LogIn}
      label="Sign in"
      busyLabel="Signing In..."
      busy={view.kind === 'signing-in'}
      failure={view.kind === 'failed' ? view.message : null}
      note="If you did not ask for this link, close this page: nothing happens until you press the button."
      onPress={() => void signIn()}
    />
  );
}
