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

/** The remembered claim page (once), or null. Only /gift/ paths are ever returned. */
export function takeGiftPath(): string | null {
  const path = safeStorage.get(KEY, 'session');
  safeStorage.remove(KEY, 'session');
  return path && /^\/gift\/[\w-]+$/.test(path) ? path : null;
}
