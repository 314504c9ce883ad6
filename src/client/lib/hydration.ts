/**
 * Whether this component is drawing the page's first frame, on the server or while the browser hydrates
 * the server's HTML. Both must draw the same frame from the embedded data, so a part that would
 * otherwise start with a placeholder (e.g. a post body waiting for its browser-side sanitizer) draws the
 * server's version instead. React answers the server snapshot exactly in those two cases.
 */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

export function useIsHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}
