/**
 * Who is signed in, for every part of the browser app (docs/PRODUCT.md, Sign-in state).
 *
 * - `useAuthStatus()`      GET /api/users/check-auth; polled every 30 s, refetched on focus, fresh 10 s.
 *   `useAuthStatus({ cache: 'long' })` is the floating bar's 5-minute cached copy (own cache entry,
 *   so its long cache is not reset by the header's polling).
 * - `useIsAdmin()`         true only for a signed-in user with role admin.
 * Both status queries share the AUTH_STATUS_KEY prefix: invalidate that prefix after login/logout.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AUTH_POLL_MS, AUTH_STALE_MS, FLOATING_BAR_AUTH_CACHE_MS } from '@shared/constants';
import type { AuthStatus } from '@shared/schemas/auth';
import { apiRequest } from './api-client';

export const AUTH_STATUS_PATH = '/api/users/check-auth';
export const AUTH_STATUS_KEY = [AUTH_STATUS_PATH] as const;
const LONG_CACHE_KEY = [AUTH_STATUS_PATH, 'long-cache'] as const;

export const SIGNED_OUT: AuthStatus = { isAuthenticated: false, user: null };

/** A failed check counts as signed out; the failure is only logged (docs/PRODUCT.md, Sign-in state). */
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
  /** 'live' (default): the polling of docs/PRODUCT.md, Sign-in state; 'long': the floating bar's 5-minute cache. */
  cache?: 'live' | 'long';
}

export function useAuthStatus(options: AuthStatusOptions = {}) {
  const long = options.cache === 'long';
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: long ? LONG_CACHE_KEY : AUTH_STATUS_KEY,
    // The long copy asks through the live entry, so a page that shows both (header and floating bar)
    // makes one request, not two.
    queryFn: long
      ? () => queryClient.fetchQuery({ queryKey: AUTH_STATUS_KEY, queryFn: ({ signal }) => fetchAuthStatus(signal), staleTime: AUTH_STALE_MS })
      : ({ signal }) => fetchAuthStatus(signal),
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
