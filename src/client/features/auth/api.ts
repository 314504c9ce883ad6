/**
 * Auth calls of the browser (SPEC 4 "Authentication", SPEC 8 logout toasts). Who is signed in lives in
 * lib/session.ts (re-exported here), since many features ask it.
 * - `logout()` / `useLogout()` sign out locally first, then tell the server.
 * Both status queries share the AUTH_STATUS_KEY prefix: invalidate that prefix after login/logout.
 * - Account calls (login, register, forgot/reset/change password, profile) return a `CallResult` so
 *   the pages can tell a server refusal (with its message) from a network failure.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@client/lib/router';
import type { AuthStatus, UserProfile } from '@shared/schemas/auth';
import { apiErrorOf, apiFetch, apiRequest, clearAuthToken, setAuthToken } from '@client/lib/api-client';
import { toast } from '@client/components/ui/toast-store';

export { AUTH_STATUS_KEY, AUTH_STATUS_PATH, fetchAuthStatus, SIGNED_OUT, useAuthStatus, useIsAdmin, type AuthStatusOptions } from '@client/lib/session';
import { AUTH_STATUS_KEY, fetchAuthStatus, SIGNED_OUT } from '@client/lib/session';

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
  if (res.ok) return { kind: 'ok', data: (await res.json().catch(() => null)) as T };
  const error = await apiErrorOf(res);
  const fields = Object.keys(error.fields).length > 0 ? error.fields : undefined;
  return { kind: 'failed', status: res.status, message: error.serverMessage, fields };
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
