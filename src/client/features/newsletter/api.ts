/** Newsletter calls: subscribe and the demo reader's Login/Logout (docs/PRODUCT.md, Newsletter). */
import type { QueryClient } from '@tanstack/react-query';
import type { AuthStatus } from '@shared/schemas/auth';
import type { SubscribeAnswer } from '@shared/schemas/newsletter';
import type { ConfirmSubscriptionAnswer } from '@shared/schemas/newsletter-confirm';
import { apiErrorOf, apiFetch, apiRequest, clearAuthToken, setAuthToken } from '@client/lib/api-client';
import { toast } from '@client/components/ui/toast-store';
import { AUTH_STATUS_KEY, SIGNED_OUT } from '@client/lib/session';

export async function subscribeToNewsletter(email: string): Promise<SubscribeAnswer> {
  // docs/PRODUCT.md, Newsletter: the name is sent empty.
  const res = await apiRequest('POST', '/api/subscribe', { email, name: '' });
  return (await res.json()) as SubscribeAnswer;
}

export async function demoLogin(queryClient: QueryClient, credentials: { username: string; password: string }) {
  let res: Response;
  try {
    res = await apiFetch('POST', '/api/users/login', credentials);
  } catch (error) {
    console.error('Demo login failed', error);
    toast({ title: 'Login Error', description: 'An error occurred during login', variant: 'destructive' });
    return false;
  }
  if (!res.ok) {
    toast({ title: 'Login Failed', description: (await apiErrorOf(res)).serverMessage ?? 'Unable to log in', variant: 'destructive' });
    return false;
  }
  const body = (await res.json().catch(() => ({}))) as { success?: boolean; token?: string; message?: string };
  if (body.success === false) {
    toast({ title: 'Login Failed', description: body.message || 'Unable to log in', variant: 'destructive' });
    return false;
  }
  if (body.token) setAuthToken(body.token);
  toast({ title: 'Login Successful', description: 'You are signed in as the demo reader.' });
  await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
  return true;
}

export async function demoLogout(queryClient: QueryClient) {
  // Signed out locally first, whatever the server answers (docs/PRODUCT.md, Sign-in state).
  clearAuthToken();
  try {
    const res = await apiFetch('POST', '/api/users/logout');
    if (res.ok) toast({ title: 'Logout Successful', description: 'You have been logged out of your account.' });
    else toast({ title: 'Logout Failed', description: (await apiErrorOf(res)).serverMessage ?? 'Unable to log out', variant: 'destructive' });
  } catch (error) {
    console.error('Demo logout failed', error);
    toast({ title: 'Logout Error', description: 'An error occurred during logout', variant: 'destructive' });
  }
  queryClient.setQueriesData<AuthStatus>({ queryKey: AUTH_STATUS_KEY }, SIGNED_OUT);
  await queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
}

/** The confirm page's button (decision 0069): the only thing that confirms a subscription. */
export async function confirmSubscription(token: string): Promise<ConfirmSubscriptionAnswer> {
  const res = await apiRequest('POST', '/api/newsletter/confirm', { token });
  return (await res.json()) as ConfirmSubscriptionAnswer;
}
