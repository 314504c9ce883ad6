/**
 * The profile's "Account Details" tab (docs/PRODUCT.md, Account details): not logged in, loading skeleton, load failure (toast and
 * inline alert), or the account card with Change Password, and for admins the Admin Account banner.
 */
import { useEffect, useState } from 'react';
import { Link } from '@client/lib/router';
import { format } from 'date-fns';
import { Award, KeyRound, LayoutDashboard, Mail, ShieldCheck, UserPen } from 'lucide-react';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/toast-store';
import { countOf } from '@client/lib/plural';
import { useUserProfile } from '../account-calls';
import { ChangePasswordDialog } from './change-password-dialog';
import { SetPasswordDialog } from './set-password-dialog';
import { ChangeUsernameDialog } from './change-username-dialog';

export function initials(username: string): string {
  return username.slice(0, 2).toUpperCase();
}

export function AccountDetails({ userId }: { userId?: number }) {
  const profile = useUserProfile(userId);
  const [changing, setChanging] = useState(false);
  const [renaming, setRenaming] = useState(false);

  useEffect(() => {
    if (profile.isError) toast({ title: 'Error', description: 'Failed to load user profile data', variant: 'destructive' });
  }, [profile.isError]);

  if (userId === undefined) {
    return (
      <Alert title="Not Logged In">Log in or create an account to access your digital purchases and manage your account.</Alert>
    );
  }
  if (profile.isPending) {
    return (
      <Card data-testid="account-skeleton" aria-busy="true">
        <CardContent className="flex items-center gap-5 p-6">
          <Skeleton className="size-20 rounded-full" />
          <div className="grid flex-1 gap-3">
            <Skeleton className="h-6 w-48" />
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-full max-w-md" />
          </div>
        </CardContent>
        <span className="sr-only" role="status">
          Loading your account
        </span>
      </Card>
    );
  }
  if (profile.isError) {
    return (
      <Alert variant="destructive" title="Error">
        Failed to load user profile. Please refresh the page and try again.
      </Alert>
    );
  }

  const user = profile.data;
  const name = user.displayName || user.username;
  const isAdmin = user.role === 'admin';
  return (
    <div className="grid gap-6">
      {isAdmin ? (
        <Link
          to="/admin"
          className="flex items-center gap-3 rounded-lg border border-blood-500/70 bg-blood-950/60 p-4 text-bone-50 transition hover:bg-blood-900/60"
        >
          <ShieldCheck aria-hidden="true" className="size-5 text-blood-400" />
          <span>
            <span className="block font-semibold">Admin Account</span>
            <span className="text-sm text-bone-300">You have administrator access. Manage books and see the dashboard.</span>
          </span>
        </Link>
      ) : null}
      <Card>
        <CardContent className="flex flex-col gap-6 p-6 sm:flex-row sm:items-center">
          {user.avatarUrl ? (
            <img src={user.avatarUrl} alt="" className="size-20 rounded-full border border-ink-600 object-cover" />
          ) : (
            <div
              aria-hidden="true"
              className="flex size-20 shrink-0 items-center justify-center rounded-full border border-blood-500/50 bg-blood-950 font-display text-2xl font-semibold text-bone-50"
            >
              {initials(user.username)}
            </div>
          )}
          <div className="grid gap-1">
            <h2 className="font-display text-2xl font-semibold text-bone-50">{name}</h2>
            <p className="text-sm text-bone-400">Joined {format(new Date(user.createdAt), 'MMMM d, yyyy')}</p>
            <p className="mt-2 text-bone-300">
              Welcome back, {name}. From here you can manage your account and reach the digital editions in your library.
            </p>
          </div>
        </CardContent>
        <CardContent className="border-t border-ink-700 pt-6">
          <div role="group" aria-label="Points" className="flex items-center gap-3">
            <Award aria-hidden="true" className="size-6 shrink-0 text-blood-400" />
            <div>
              <p className="text-xs font-semibold tracking-[0.2em] text-bone-300 uppercase">Points</p>
              <p className="font-display text-xl font-semibold text-bone-50 tabular-nums">{countOf(user.points ?? 0, 'point')}</p>
            </div>
          </div>
          <p className="mt-2 text-sm text-bone-400">Earned by sharing the book and subscribing to the newsletter.</p>
        </CardContent>
        <CardContent className="flex flex-wrap gap-3 border-t border-ink-700 pt-6">
          <Button variant="outline">
            <Mail aria-hidden="true" />
            Update Email
          </Button>
          <Button variant="outline">
            <UserPen aria-hidden="true" />
            Edit Profile
          </Button>
          {user.linkOnly ? (
            <Button variant="outline" onClick={() => setRenaming(true)}>
              <UserPen aria-hidden="true" />
              Change Username
            </Button>
          ) : null}
          <Button onClick={() => setChanging(true)}>
            <KeyRound aria-hidden="true" />
            {user.linkOnly ? 'Set Password' : 'Change Password'}
          </Button>
          {isAdmin ? (
            <Link to="/admin" className={buttonClasses('destructive')}>
              <LayoutDashboard aria-hidden="true" />
              Admin Dashboard
            </Link>
          ) : null}
        </CardContent>
      </Card>
      {/* An account made by an emailed link has no current password to give (decision 0084). */}
      {user.linkOnly ? (
        <ChangeUsernameDialog userId={user.id} current={user.username} open={renaming} onOpenChange={setRenaming} />
      ) : null}
      {user.linkOnly ? (
        <SetPasswordDialog userId={user.id} open={changing} onOpenChange={setChanging} />
      ) : (
        <ChangePasswordDialog userId={user.id} open={changing} onOpenChange={setChanging} />
      )}
    </div>
  );
}
