/**
 * /profile, "My Account" (docs/PRODUCT.md, Profile): a login prompt when signed out; otherwise the "Account Details"
 * and "My Library" tabs, chosen by the #library hash and kept in step with it, links back into the
 * home page, and Logout. Arriving with returnTo=purchase (after registering from a purchase) goes on to
 * /#purchase, with a one-second toast when a purchase intent is waiting.
 */
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from '@client/lib/router';
import { ArrowLeft, LogIn, LogOut } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { toast } from '@client/components/ui/toast-store';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useAuthStatus, useLogout } from '@client/features/auth/api';
import { AccountDetails } from '@client/features/auth/components/account-details';
import { ReadThroughChoice } from '@client/features/reading/components/read-through-choice';
import { ReadingAppCatalogue } from '@client/features/feeds/components/reading-app-catalogue';
import { readReturnTo } from '@client/features/auth/query-params';
import { hasPurchaseIntent } from '@client/features/checkout/intent';
import { ProfileLibrary } from './profile-library';

const LIBRARY_HASH = '#library';
const SECTION_LINKS = [
  { to: '/#synopsis', label: 'Synopsis' },
  { to: '/#reviews', label: 'Reviews' },
  { to: '/#purchase', label: 'Purchase' },
];

export default function ProfilePage() {
  useDocumentTitle('My Account');
  const auth = useAuthStatus();
  const logout = useLogout();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnTo = readReturnTo(params);
  const tab = location.hash === LIBRARY_HASH ? 'library' : 'account';

  useEffect(() => {
    if (!auth.isAuthenticated || returnTo !== 'purchase') return;
    if (hasPurchaseIntent()) {
      toast({ title: 'Resuming your purchase', description: 'Taking you back to the formats...', duration: 1000 });
    }
    navigate('/#purchase', { replace: true });
  }, [auth.isAuthenticated, returnTo, navigate]);

  const selectTab = (value: string) => {
    navigate({ search: location.search, hash: value === 'library' ? LIBRARY_HASH : '' }, { replace: true });
  };

  if (auth.isPending) {
    return (
      <PageShell eyebrow="Account" title="My Account">
        <div className="flex min-h-40 items-center justify-center">
          <Spinner label="Checking your account" showLabel />
        </div>
      </PageShell>
    );
  }

  if (!auth.isAuthenticated || !auth.user) {
    return (
      <PageShell eyebrow="Account" title="My Account">
        <Card>
          <CardContent className="grid justify-items-center gap-4 p-10 text-center">
            <h2 className="font-display text-2xl font-semibold text-bone-50">Please log in</h2>
            <p className="max-w-md text-bone-300">
              Log in to see your account details and the digital editions in your library.
            </p>
            <Link to="/login" className={buttonClasses('primary', 'lg')}>
              <LogIn aria-hidden="true" />
              Login
            </Link>
          </CardContent>
        </Card>
      </PageShell>
    );
  }

  return (
    <PageShell eyebrow="Account" title="My Account">
      <nav aria-label="Back to the book" className="-mt-4 mb-8 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
        <Link to="/" className="inline-flex items-center gap-1.5 text-bone-300 hover:text-bone-50">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Home
        </Link>
        {SECTION_LINKS.map((link) => (
          <Link key={link.to} to={link.to} className="text-bone-300 underline-offset-4 hover:text-bone-50 hover:underline">
            {link.label}
          </Link>
        ))}
        <Button variant="outline" size="sm" className="ml-auto" onClick={() => void logout()}>
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      </nav>
      <Tabs value={tab} onValueChange={selectTab}>
        <TabsList>
          <TabsTrigger value="account">Account Details</TabsTrigger>
          <TabsTrigger value="library">My Library</TabsTrigger>
        </TabsList>
        <TabsContent value="account">
          <AccountDetails userId={auth.user.id} />
          <ReadingAppCatalogue />
          <ReadThroughChoice />
        </TabsContent>
        <TabsContent value="library">
          <ProfileLibrary userId={auth.user.id} />
        </TabsContent>
      </Tabs>
    </PageShell>
  );
}
