/**
 * Keeps the reader's place on the server: `report()` on every move, saved after a quiet moment
 * (debounced) and at once when the page is hidden or left, so another device opens at the same place.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { type ContentFormat, PROGRESS_KEY, putPosition } from './api';

export const SAVE_DELAY_MS = 1500;
/** While moving all the time (listening), a save still goes out at least this often. */
export const MAX_WAIT_MS = 5000;

export function usePositionSync(bookId: number | null, format: ContentFormat | null) {
  const pending = useRef<{ locator: string; progress: number; updatedAt: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const firstPendingAt = useRef(0);
  const queryClient = useQueryClient();

  const flush = useCallback(
    (leaving = false) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      const position = pending.current;
      if (!position || bookId === null || !format) return;
      pending.current = null;
      void putPosition(bookId, format, position, leaving)
        // The library's "Read 37%" lines may already be on screen (leaving lands there): refresh them.
        .then(() => queryClient.invalidateQueries({ queryKey: PROGRESS_KEY }))
        .catch((error) => console.error('Could not save your place', error));
    },
    [bookId, format, queryClient],
  );

  const report = useCallback(
    (locator: string, progress: number) => {
      // The time of the move, not of the save: it is what orders two devices' writes.
      pending.current = { locator, progress: Math.min(1, Math.max(0, progress)), updatedAt: new Date().toISOString() };
      const now = Date.now();
      if (timer.current) clearTimeout(timer.current);
      else firstPendingAt.current = now;
      const delay = Math.max(0, Math.min(SAVE_DELAY_MS, MAX_WAIT_MS - (now - firstPendingAt.current)));
      timer.current = setTimeout(() => flush(), delay);
    },
    [flush],
  );

  useEffect(() => {
    const onHide = () => flush(true);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush(true);
    };
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
      // Leaving the route inside the app: save what is pending now.
      flush(true);
    };
  }, [flush]);

  return { report, flush };
}
