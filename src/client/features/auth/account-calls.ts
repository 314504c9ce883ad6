/**
 * Account calls of the browser (login, register, forgot/reset/change password, profile). Each returns a
 * `CallResult` so the pages can tell a server refusal (with its message) from a network failure. Apart from
 * api.ts, which every page's header loads, so that only the account pages carry them.
 */
import { useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { AuthStatus, UserProfile } from '@shared/schemas/auth';
import { apiErrorOf, apiFetch, apiRequest, setAuthToken } from '@client/lib/api-client';
import { AUTH_STATUS_KEY, fetchAuthStatus } from '@client/lib/session';

/**
 * The outcome of an account call: `ok` with the parsed body, `failed` with the server's message when it
 * sent one, or `network` when no answer came back. Pages pick their toast (docs/PRODUCT.md, Account) from this.
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

/** Emailed sign-in links (decision 0084): ask for one, use one, and set a first password on a link-made account. */
export const loginLinkRequest = (body: { email: string; returnTo?: 'purchase' | 'gift' }) =>
  call<{ success: boolean; message: string }>('POST', '/api/users/login-link', body);
export const signInWithLinkRequest = (token: string) => call<LoginAnswer>('POST', '/api/users/login-link/use', { token });
export const setPasswordRequest = (userId: number, body: { newPassword: string }) =>
  call<{ success: boolean; message: string }>('POST', `/api/users/${userId}/set-password`, body);
export const changeUsernameRequest = (userId: number, body: { username: string }) =>
  call<{ success: boolean; message: string }>('POST', `/api/users/${userId}/username`, body);

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
