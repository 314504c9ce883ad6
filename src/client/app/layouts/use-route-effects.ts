/**
 * Side effects of a route change for the whole shell:
 * - arriving on /#anchor jumps to that section once it exists and keeps it in place while the page settles
 *   (on the page the browser loaded, the browser made the jump: the section is only kept, if still in view);
 * - other navigations start at the top of the page; the page the browser loaded keeps its place (the
 *   reader may have scrolled the server's HTML before it came alive, or the browser restored a position);
 * - the auth status is re-checked on every route change (docs/PRODUCT.md, Sign-in state), not only by polling.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from '@client/lib/router';
import { AUTH_STATUS_KEY } from '@client/features/auth/api';
import { scrollToAnchor } from '@client/lib/scroll-to-anchor';

export function useRouteEffects(): void {
  const { pathname, hash } = useLocation();
  const queryClient = useQueryClient();
  const firstRender = useRef(true);
  // The address the browser loaded (and whether it has been drawn whole), until the reader navigates.
  const landing = useRef<{ address: string; drawn: boolean } | null | undefined>(undefined);

  useEffect(() => {
    if (landing.current === undefined) landing.current = { address: window.location.pathname + window.location.hash, drawn: false };
    const loaded = landing.current;
    const here = pathname + hash;
    // Hydration draws the loaded address without its hash first (the server cannot know it), then with it.
    const arrived = loaded !== null && (here === loaded.address || (!loaded.drawn && here === loaded.address.replace(/#.*$/, '')));
    if (!arrived) landing.current = null;
    else if (here === loaded.address) loaded.drawn = true;
    if (pathname === '/' && hash.length > 1) {
      return scrollToAnchor(decodeURIComponent(hash.slice(1)), { behavior: 'instant', landed: arrived });
    }
    if (!hash && !arrived) window.scrollTo(0, 0);
    return undefined;
  }, [pathname, hash]);

  useEffect(() => {
    // The first check happens when the header mounts; only later navigations need a refresh.
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    void queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY, exact: true });
  }, [pathname, queryClient]);
}
