/**
 * Web storage that never throws. Browsers refuse it in some privacy modes, when it is full, or when it
 * is switched off; every caller then behaves as if nothing was stored, so the site still works, only
 * without remembering across visits.
 */
type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export const safeStorage = {
  get(key: string, which: Area = 'local'): string | null {
    try {
      return area(which)?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },

  /** Whether the value was stored. */
  set(key: string, value: string, which: Area = 'local'): boolean {
    try {
      const storage = area(which);
      storage?.setItem(key, value);
      return storage !== null;
    } catch {
      return false;
    }
  },

  remove(key: string, which: Area = 'local'): void {
    try {
      area(which)?.removeItem(key);
    } catch {
      // Nothing could be stored, so there is nothing to remove.
    }
  },

  /** A stored JSON value, or null when absent, unreadable or not JSON. */
  getJson<T>(key: string, which: Area = 'local'): T | null {
    const raw = safeStorage.get(key, which);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
};
