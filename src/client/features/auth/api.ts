/**
 * Auth calls of the browser (docs/PRODUCT.md, Sign-in state; Logout). Who is signed in lives in
 * lib/session.ts (re-exported here), since many features ask it.
 * - `logout()` / `useLogout()` sign out locally first, then tell the server.
 * Both status queries share the AUTH_STATUS_KEY prefix: invalidate that prefix after login/logout.
 * The account calls (login, register, passwords, profile) are in account-calls.ts: only the pages that make
 * them load them, while this module is in every page's first view (the header signs out).
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@client/lib/router';
import type { AuthStatus } from '@shared/schemas/auth';
import { apiFetch, clearAuthToken } from '@client/lib/api-client';
import { toast } from '@client/components/ui/toast-store';

export { AUTH_STATUS_KEY, AUTH_STATUS_PATH, fetchAuthStatus, SIGNED_OUT, useAuthStatus, useIsAdmin, type AuthStatusOptions } from '@client/lib/session';
import { AUTH_STATUS_KEY, SIGNED_OUT } from '@client/lib/session';

export interface LogoutDeps {
  queryClient: QueryClient;
  /** Current path; on /profile the user is sent home afterwards. */
  pathname?: string;
  navigate?: (to: string) => void;
}

/** Outcome, for callers that want it; the toasts are already shown. */
export type LogoutOutcome = 'ok' | 'server-error' | 'network-error';

/** docs/PRODUCT.md, Sign-in state: token removed locally FIRST, so the user is signed out whatever the server answers. */
export async function logout({ queryClient, pathname, navigate }: LogoutDeps): Promise<LogoutOutcome> {
  clearAuthToken();
  let outcome: LogoutOutcome;
  try {
    const res = await apiFetch('POST', '/api/users/logout');
    outcome = res.ok ? 'ok' : 'server-error';
  } catch (error) {
    console.error('Logout request failed', error);
    outcome = 'network-error';
  }

  if (outcome === 'ok') {
    toast({ title: 'Logged out successfully', description: 'You have been logged out of your account.' });
  } else if (outcome === 'server-error') {
    toast({ title: 'Partial logout', description: "You've been logged out, but there was an issue with the server." });
  } else {
    toast({
      title: 'Partial logout',
      description: "You've been logged out from this device, but there was a server error.",
    });
  }

  // Show signed-out immediately, then confirm with the server.
  queryClient.setQueriesData<AuthStatus>({ queryKey: AUTH_STATUS_KEY }, SIGNED_OUT);
  // The admin check is per-user too; drop it so a guarded page asks the server again.
  queryClient.removeQueries({ queryKey: ['/api/users/check-admin'] });
  await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
  if (pathname === '/profile') navigate?.('/');
  return outcome;
}

/** `logout` bound to the current router location and query client. */
export function useLogout(): () => Promise<LogoutOutcome> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(() => logout({ queryClient, pathname, navigate }), [queryClient, pathname, navigate]);
}
