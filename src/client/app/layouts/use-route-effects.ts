/**
 * Side effects of a route change for the whole shell:
 * - arriving on /#anchor jumps to that section once it exists and keeps it in place while the page settles;
 * - other navigations start at the top of the page; the page the browser loaded keeps its place (the
 *   reader may have scrolled the server's HTML before it came alive, or the browser restored a position);
 * - the auth status is re-checked on every route change (SPEC 4), not only by polling.
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
  const loadedPage = useRef(true);

  useEffect(() => {
    const arrived = loadedPage.current;
    loadedPage.current = false;
    if (pathname === '/' && hash.length > 1) return scrollToAnchor(decodeURIComponent(hash.slice(1)), { behavior: 'instant' });
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
