/**
 * A recipient who opens a claim link signed out goes to sign in or register and comes back to the gift:
 * the link waits in session storage (it is a secret, so it never goes into another address).
 */
const KEY = 'gift.returnPath';

export function rememberGiftPath(path: string): void {
  try {
    window.sessionStorage.setItem(KEY, path);
  } catch {
    // Storage unavailable: the reader opens the mail's link again after signing in.
  }
}

/** The remembered claim page (once), or null. Only /gift/ paths are ever returned. */
export function takeGiftPath(): string | null {
  try {
    const path = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return path && /^\/gift\/[\w-]+$/.test(path) ? path : null;
  } catch {
    return null;
  }
}
