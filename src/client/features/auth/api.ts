/**
 * Auth status for the browser shell (SPEC 4 "Authentication", SPEC 8 logout toasts).
 *
 * - `useAuthStatus()`      GET /api/users/check-auth; polled every 30 s, refetched on focus, fresh 10 s.
 *   `useAuthStatus({ cache: 'long' })` is the floating bar's 5-minute cached copy (own cache entry,
 *   so its long cache is not reset by the header's polling).
 * - `useIsAdmin()`         true only for a signed-in user with role admin.
 * - `logout()` / `useLogout()` sign out locally first, then tell the server.
 * Both status queries share the AUTH_STATUS_KEY prefix: invalidate that prefix after login/logout.
 * - Account calls (login, register, forgot/reset/change password, profile) return a `CallResult` so
 *   the pages can tell a server refusal (with its message) from a network failure.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@client/lib/router';
import { AUTH_POLL_MS, AUTH_STALE_MS, FLOATING_BAR_AUTH_CACHE_MS } from '@shared/constants';
import type { AuthStatus, UserProfile } from '@shared/schemas/auth';
import { apiFetch, apiRequest, clearAuthToken, clearCsrfToken, setAuthToken } from '@client/lib/api-client';
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

// --- account calls (SPEC 7) ----------------------------------------------------------------------

/**
 * The outcome of an account call: `ok` with the parsed body, `failed` with the server's message when it
 * sent one, or `network` when no answer came back. Pages pick their SPEC 8 toast from this.
 */
export type CallResult<T> =
  | { kind: 'ok'; data: T }
  | { kind: 'failed'; status: number; message: string | null; fields?: Record<string, string> }
  | { kind: 'network'; error: unknown };

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<CallResult<T>> {
  let res: Response;
  try {
    res = await apiFetch(method, url, body);
  } catch (error) {
    console.error(`${method} ${url} failed`, error);
    return { kind: 'network', error };
  }
  const data = (await res.json().catch(() => null)) as (T & { message?: unknown; fields?: unknown }) | null;
  if (res.ok) return { kind: 'ok', data: data as T };
  const message = data && typeof data.message === 'string' && data.message ? data.message : null;
  const fields = data && typeof data.fields === 'object' ? (data.fields as Record<string, string>) : undefined;
  if (res.status === 403 && data && (data as { code?: string }).code === 'CSRF_ERROR') clearCsrfToken();
  return { kind: 'failed', status: res.status, message, fields };
}

export interface LoginAnswer {
  success: boolean;
  user: { id: number; role: 'user' | 'admin' };
  token?: string;
  message: string;
}
export interface RegisterAnswer {
  id: number;
  token?: string;
  message: string;
}

export const loginRequest = (body: { username: string; password: string }) =>
  call<LoginAnswer>('POST', '/api/users/login', body);
export const registerRequest = (body: { username: string; password: string; email: string; displayName: string }) =>
  call<RegisterAnswer>('POST', '/api/users/register', body);
export const forgotPasswordRequest = (body: { email: string }) =>
  call<{ success: boolean }>('POST', '/api/users/forgot-password', body);
export const resetPasswordRequest = (body: { email: string; token: string; newPassword: string }) =>
  call<{ success: boolean; message: string }>('POST', '/api/users/reset-password', body);
/** Whether the server still accepts this reset link; null when it could not be asked. */
export async function resetLinkStatusRequest(email: string, token: string): Promise<boolean | null> {
  const query = new URLSearchParams({ email, token });
  const result = await call<{ valid?: unknown }>('GET', `/api/users/reset-password/status?${query.toString()}`);
  return result.kind === 'ok' && typeof result.data.valid === 'boolean' ? result.data.valid : null;
}
export const changePasswordRequest = (userId: number, body: { currentPassword: string; newPassword: string }) =>
  call<{ success: boolean; message: string }>('POST', `/api/users/${userId}/change-password`, body);

export async function generatePasswordRequest(): Promise<string> {
  const res = await apiRequest('GET', '/api/generate-password');
  const data = (await res.json()) as { password?: unknown };
  if (typeof data.password !== 'string' || !data.password) throw new Error('No password in the answer');
  return data.password;
}

/** After a sign-in or sign-up: keep the bearer token (when given) and make every status check ask again. */
export async function afterSignIn(queryClient: QueryClient, token: string | undefined): Promise<AuthStatus> {
  if (token) setAuthToken(token);
  queryClient.removeQueries({ queryKey: ['/api/users/check-admin'] });
  await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
  return queryClient.fetchQuery({ queryKey: AUTH_STATUS_KEY, queryFn: ({ signal }) => fetchAuthStatus(signal), staleTime: 0 });
}

export const userProfileKey = (userId: number) => ['/api/users', userId] as const;

/** GET /api/users/{userId}: the default query function reads the key as the path. */
export function useUserProfile(userId: number | undefined) {
  return useQuery<UserProfile>({ queryKey: userProfileKey(userId ?? 0), enabled: userId !== undefined });
}
