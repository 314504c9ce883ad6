/**
 * /login (docs/PRODUCT.md, Sign in; Register): Login and Register tabs. returnTo=admin turns the
 * card into "Admin Access" with a red border; the "Administrator Access" link shows only without returnTo.
 */
import { lazy, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from '@client/lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { LOGIN_REDIRECT_DELAY_MS } from '@shared/constants';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { toast } from '@client/components/ui/toast-store';
import { cn } from '@client/lib/cn';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { afterSignIn } from '@client/features/auth/account-calls';
import { LoginForm } from '@client/features/auth/components/login-form';
import { LoginLinkForm } from '@client/features/auth/components/login-link-form';
import { RegisterForm } from '@client/features/auth/components/register-form';
import { keepGiftPathForLink, takeGiftPath } from '@client/features/gifts/return-path';
import { redirectAfterLogin } from './login-redirect';
import { readReturnTo } from '@client/features/auth/query-params';

type Tab = 'login' | 'register';

// The emailed sign-in link's page shares this route and chunk (decision 0084), loaded only when opened.
const LoginLinkPage = lazy(() => import('./login-link'));

export default function LoginPage() {
  const { pathname } = useLocation();
  return /^\/login-link\/?$/i.test(pathname) ? <LoginLinkPage /> : <PasswordLoginPage />;
}

function PasswordLoginPage() {
  const [params] = useSearchParams();
  const returnTo = readReturnTo(params);
  const hasReturnTo = params.has('returnTo');
  // The footer's Admin link (/login?admin=1) opens the same admin variant as returnTo=admin.
  const adminAccess = returnTo === 'admin' || params.get('admin') === '1';
  useDocumentTitle(adminAccess ? 'Admin Access' : 'Sign In');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('login');
  const [prefill, setPrefill] = useState('');

  const onSignedIn = async ({ role, token }: { role: 'user' | 'admin'; token?: string }) => {
    await afterSignIn(queryClient, token);
    toast({ title: 'Login Successful', description: 'Welcome back!' });
    await new Promise((resolve) => setTimeout(resolve, LOGIN_REDIRECT_DELAY_MS));
    await redirectAfterLogin(role, returnTo, navigate);
  };

  const onRegistered = async ({ username, token, reset }: { username: string; token?: string; reset: () => void }) => {
    const status = await afterSignIn(queryClient, token);
    toast({ title: 'Registration Successful', description: 'Your account has been created. Welcome!' });
    if (status.isAuthenticated) {
      // The profile page finishes a purchase hand-off (returnTo=purchase) by going back to the formats.
      if (returnTo === 'gift') navigate(takeGiftPath() ?? '/profile');
      else if (returnTo === 'basket') navigate('/basket');
      else navigate(returnTo === 'purchase' ? '/profile?returnTo=purchase' : '/profile');
      return;
    }
    reset();
    setPrefill(username);
    setTab('login');
  };

  return (
    <div className="mx-auto w-full max-w-md px-4 py-14 sm:py-20">
      <Card
        data-testid="login-card"
        data-admin={adminAccess ? 'true' : undefined}
        className={cn(adminAccess && 'border-2 border-blood-500 shadow-blood-900/50')}
      >
        <CardHeader className="text-center">
          {adminAccess ? (
            <ShieldAlert aria-hidden="true" className="mx-auto mb-2 size-8 text-blood-400" />
          ) : (
            <p className="text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase">Your Account</p>
          )}
          <CardTitle className="text-3xl">{adminAccess ? 'Admin Access' : 'Welcome'}</CardTitle>
          <CardDescription>
            {adminAccess
              ? 'Sign in with an administrator account to manage books and see the dashboard.'
              : 'Sign in to buy the book and reach your digital library, or create an account in a minute.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
            <TabsList className="w-full">
              <TabsTrigger value="login" className="flex-1">
                Login
              </TabsTrigger>
              <TabsTrigger value="register" className="flex-1">
                Register
              </TabsTrigger>
            </TabsList>
            <TabsContent value="login">
              <LoginForm defaultUsername={prefill} onSignedIn={onSignedIn} />
              {adminAccess ? null : (
                <LoginLinkForm
                  returnTo={returnTo === 'purchase' || returnTo === 'gift' ? returnTo : undefined}
                  beforeSend={returnTo === 'gift' ? keepGiftPathForLink : undefined}
                />
              )}
            </TabsContent>
            <TabsContent value="register">
              <RegisterForm onRegistered={onRegistered} />
            </TabsContent>
          </Tabs>
          {!hasReturnTo && !adminAccess ? (
            <p className="mt-8 border-t border-ink-700 pt-5 text-center text-sm">
              <Link to="/login?returnTo=admin" className="text-bone-400 underline-offset-4 hover:text-bone-100 hover:underline">
                Administrator Access
              </Link>
            </p>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
