/**
 * Auth status for the browser shell (SPEC 4 "Authentication", SPEC 8 logout toasts).
 *
 * - `useAuthStatus()`      GET /api/users/check-auth; polled every 30 s, refetched on focus, fresh 10 s.
 *   `useAuthStatus({ cache: 'long' })` is the floating bar's 5-minute cached copy (own cache entry,
 *   so its long cache is not reset by the header's polling).
 * - `useIsAdmin()`         true only for a signed-in user with role admin.
 * - `logout()` / `useLogout()` sign out locally first, then tell the server.
 * Both status queries share the AUTH_STATUS_KEY prefix: invalidate that prefix after login/logout.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { AUTH_POLL_MS, AUTH_STALE_MS, FLOATING_BAR_AUTH_CACHE_MS } from '@shared/constants';
import type { AuthStatus } from '@shared/schemas/auth';
import { apiFetch, apiRequest, clearAuthToken } from '@client/lib/api-client';
import { toast } from '@client/components/ui/toast-store';

export const AUTH_STATUS_PATH = '/api/users/check-auth';
export const AUTH_STATUS_KEY = [AUTH_STATUS_PATH] as const;
const LONG_CACHE_KEY = [AUTH_STATUS_PATH, 'long-cache'] as const;

export const SIGNED_OUT: AuthStatus = { isAuthenticated: false, user: null };

/** A failed check counts as signed out; the failure is only logged (SPEC 8). */
export async function fetchAuthStatus(signal?: AbortSignal): Promise<AuthStatus> {
  try {
    const res = await apiRequest('GET', AUTH_STATUS_PATH, undefined, { signal });
    const data = (await res.json()) as Partial<AuthStatus>;
    return { isAuthenticated: data.isAuthenticated === true, user: data.user ?? null };
  } catch (error) {
    if (!signal?.aborted) console.error('Auth check failed', error);
    return SIGNED_OUT;
  }
}

export interface AuthStatusOptions {
  /** 'live' (default): SPEC 4 polling; 'long': the floating bar's 5-minute cache. */
  cache?: 'live' | 'long';
}

export function useAuthStatus(options: AuthStatusOptions = {}) {
  const long = options.cache === 'long';
  const query = useQuery({
    queryKey: long ? LONG_CACHE_KEY : AUTH_STATUS_KEY,
    queryFn: ({ signal }) => fetchAuthStatus(signal),
    staleTime: long ? FLOATING_BAR_AUTH_CACHE_MS : AUTH_STALE_MS,
    gcTime: long ? FLOATING_BAR_AUTH_CACHE_MS : undefined,
    refetchInterval: long ? false : AUTH_POLL_MS,
    refetchOnWindowFocus: !long,
  });
  const status = query.data ?? SIGNED_OUT;
  return {
    ...query,
    status,
    isAuthenticated: status.isAuthenticated,
    user: status.user ?? null,
    isAdmin: status.isAuthenticated && status.user?.role === 'admin',
  };
}

export function useIsAdmin(options?: AuthStatusOptions): boolean {
  return useAuthStatus(options).isAdmin;
}

export interface LogoutDeps {
  queryClient: QueryClient;
  /** Current path; on /profile the user is sent home afterwards. */
  pathname?: string;
  navigate?: (to: string) => void;
}

/** Outcome, for callers that want it; the toasts are already shown. */
export type LogoutOutcome = 'ok' | 'server-error' | 'network-error';

/** SPEC 4: token removed locally FIRST, so the user is signed out whatever the server answers. */
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
