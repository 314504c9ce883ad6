/** The post-login redirect rules (docs/PRODUCT.md, Sign in) for the login page: it composes auth, checkout and gifts, so it lives with the page. */
import type { Role } from '@shared/constants';
import { resumePurchaseAfterLogin } from '@client/features/checkout/intent';
import type { ReturnTo } from '@client/features/auth/query-params';
import { takeGiftPath } from '@client/features/gifts/return-path';

/**
 * returnTo=purchase resumes the purchase (checkout, or /#purchase when the intent is gone);
 * an admin goes to /admin (also when returnTo=admin); everyone else to /profile.
 */
export async function redirectAfterLogin(
  role: Role | undefined,
  returnTo: ReturnTo,
  navigate: (to: string) => void,
): Promise<void> {
  if (returnTo === 'gift') {
    // Back to the claim page the reader came from (issue 15 gifts).
    navigate(takeGiftPath() ?? '/profile');
    return;
  }
  if (returnTo === 'basket') {
    // The visitor's basket joins the account's on the basket page itself.
    navigate('/basket');
    return;
  }
  if (returnTo === 'purchase') {
    await resumePurchaseAfterLogin(navigate);
    return;
  }
  navigate(role === 'admin' ? '/admin' : '/profile');
}
