/** SPEC 4 post-login redirect rules, in one place for the login page and its tests. */
import type { Role } from '@shared/constants';
import { resumePurchaseAfterLogin } from '@client/features/purchase/intent';
import type { ReturnTo } from './query-params';

/**
 * returnTo=purchase resumes the purchase (checkout, or /#purchase when the intent is gone);
 * an admin goes to /admin (also when returnTo=admin); everyone else to /profile.
 */
export async function redirectAfterLogin(
  role: Role | undefined,
  returnTo: ReturnTo,
  navigate: (to: string) => void,
): Promise<void> {
  if (returnTo === 'purchase') {
    await resumePurchaseAfterLogin(navigate);
    return;
  }
  navigate(role === 'admin' ? '/admin' : '/profile');
}
