/**
 * A recipient who opens a claim link signed out goes to sign in or register and comes back to the gift:
 * the link waits in session storage (it is a secret, so it never goes into another address).
 */
import * as safeStorage from '@client/lib/safe-storage';

const KEY = 'gift.returnPath';

export function rememberGiftPath(path: string): void {
  // Storage unavailable: the reader opens the mail's link again after signing in.
  safeStorage.set(KEY, path, 'session');
}

/**
 * Before a sign-in link is mailed (decision 0084): the link opens in a new tab, which does not share session
 * storage, so the claim page waits in this browser's local storage until the link is used (or the next sign-in).
 */
export function keepGiftPathForLink(): void {
  const path = safeStorage.get(KEY, 'session');
  if (path) safeStorage.set(KEY, path);
}

/** The remembered claim page (once), or null. Only /gift/ paths are ever returned. */
export function takeGiftPath(): string | null {
  const path = safeStorage.get(KEY, 'session') ?? safeStorage.get(KEY);
  safeStorage.remove(KEY, 'session');
  safeStorage.remove(KEY);
  return path && /^\/gift\/[\w-]+$/.test(path) ? path : null;
}
