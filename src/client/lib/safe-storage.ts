/**
 * Web storage that never throws. Browsers refuse it in some privacy modes, when it is full, or when it
 * is switched off; every caller then behaves as if nothing was stored, so the site still works, only
 * without remembering across visits. Import it whole (`import * as safeStorage`), so each caller reads
 * `safeStorage.get(...)`.
 */
/** Local storage unless 'session' is asked for. */
type Area = 'session' | undefined;

// Reaching the storage object can itself throw (a sandboxed frame), so it is looked up inside each try.
const storage = (which: Area) => (which ? sessionStorage : localStorage);

export function get(key: string, which?: Area): string | null {
  try {
    return storage(which).getItem(key);
  } catch {
    return null;
  }
}

export function set(key: string, value: string, which?: Area): void {
  try {
    storage(which).setItem(key, value);
  } catch {
    // Not stored: it lasts for this visit only.
  }
}

export function remove(key: string, which?: Area): void {
  try {
    storage(which).removeItem(key);
  } catch {
    // Nothing could be stored, so there is nothing to remove.
  }
}
