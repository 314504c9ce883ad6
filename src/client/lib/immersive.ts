/**
 * Immersive pages: while a book is open in the reader, the site's header, footer and floating bar step
 * out of the way, so the page and the reader's own controls have the whole screen (a phone has little
 * of it). The reader says so while it is shown; the shell listens. A tiny store rather than a route
 * check: the same address can show a not-found or error message, and those keep the site around them.
 */
import { useEffect, useSyncExternalStore } from 'react';

let holders = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => holders > 0;
// The server renders no reading page, so its shell is never immersive.
const serverSnapshot = () => false;

/** Whether an immersive page is on screen (the shell hides its header, footer and floating bar). */
export function useImmersive(): boolean {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}

/** Makes the page immersive while `active` and the calling component is mounted. */
export function useImmersivePage(active = true): void {
  useEffect(() => {
    if (!active) return;
    holders += 1;
    notify();
    return () => {
      holders -= 1;
      notify();
    };
  }, [active]);
}
