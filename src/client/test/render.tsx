/** Render helpers for component tests: a fresh query client and an in-memory router per test. */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { matchRoute, useLocation as useWouterLocation, useRouter } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createQueryClient } from '@client/lib/query-client';
import { Route, Router } from '@client/lib/router';
import type { Location, LocationHookExtras, NavigateOptions } from '@client/lib/router';

/** A route for tests: a page at `path`, or a layout (no path) whose `<Outlet />` shows the matched child. */
export interface TestRoute {
  path?: string;
  element: ReactNode;
  children?: TestRoute[];
}

const OutletContext = createContext<ReactNode>(null);

/** Where a test layout shows the matched child route. */
export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

const leafPaths = (routes: TestRoute[]): string[] =>
  routes.flatMap((route) => (route.children ? leafPaths(route.children) : [route.path ?? '*']));

/**
 * The first route that matches wins, as in the app's Switch. A layout matches when one of its children
 * does, and it stays mounted (keyed by position) while navigation moves between its children.
 */
function TestRoutes({ routes }: { routes: TestRoute[] }) {
  const router = useRouter();
  const [path] = useWouterLocation();
  const matches = (pattern: string) => matchRoute(router.parser, pattern, path)[0];
  for (const [i, route] of routes.entries()) {
    if (route.children) {
      if (!leafPaths(route.children).some(matches)) continue;
      return (
        <OutletContext.Provider key={`layout-${i}`} value={<TestRoutes routes={route.children} />}>
          {route.element}
        </OutletContext.Provider>
      );
    }
    const pattern = route.path ?? '*';
    if (matches(pattern)) {
      return (
        <Route key={`page-${i}`} path={pattern}>
          {route.element}
        </Route>
      );
    }
  }
  return null;
}

const split = (href: string): Location => {
  const url = new URL(href, 'http://localhost');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};
const hrefOf = ({ pathname, search, hash }: Location) => `${pathname}${search}${hash}`;

/**
 * wouter's memory location (path and query) plus what it leaves out: the hash and a history stack that
 * can go back. Returned as a location hook for <Router hook>, with the extras lib/router reads.
 */
export function createTestLocation(initialPath = '/') {
  let current = split(initialPath);
  const entries = [hrefOf(current)];
  let index = 0;
  const memory = memoryLocation({ path: `${current.pathname}${current.search}` });
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  const show = (href: string) => {
    current = split(href);
    // wouter's memory location notifies path and query readers; the hash readers are ours.
    memory.navigate(`${current.pathname}${current.search}`);
    listeners.forEach((listener) => listener());
  };
  const navigate = (to: string, options: NavigateOptions = {}) => {
    const url = new URL(to, `http://localhost${hrefOf(current)}`);
    const href = `${url.pathname}${url.search}${url.hash}`;
    if (options.replace) entries[index] = href;
    else {
      entries.splice(index + 1);
      entries.push(href);
      index = entries.length - 1;
    }
    show(href);
  };
  const go = (delta: number) => {
    const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
    if (next === index) return;
    index = next;
    show(entries[index]!);
  };

  // A hook under the router's own name for it (hashHook): named useHash here so the hooks rules see one.
  const useHash = () => useSyncExternalStore(subscribe, () => current.hash);
  const hook = Object.assign(
    () => {
      const [path] = memory.hook();
      return [path, navigate] as [string, typeof navigate];
    },
    {
      searchHook: memory.searchHook,
      hashHook: useHash,
      current: () => current,
      go,
    } satisfies LocationHookExtras & { searchHook: unknown },
  );
  return { hook, navigate, go, location: () => current };
}

export function renderWithRouter(routes: TestRoute[], initialPath = '/') {
  const queryClient = createQueryClient();
  const testLocation = createTestLocation(initialPath);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={testLocation.hook}>
        <TestRoutes routes={routes} />
      </Router>
    </QueryClientProvider>,
  );
  // The shape tests read: router.state.location and router.navigate(to).
  const router = {
    get state() {
      return { location: testLocation.location() };
    },
    navigate: (to: string, options?: NavigateOptions) => testLocation.navigate(to, options),
    /** Browser Back. */
    back: () => testLocation.go(-1),
  };
  return { ...result, router, queryClient };
}

/** Render one element at `path` (inside a catch-all route so hooks like useParams work). */
export function renderAt(element: ReactElement, path = '/') {
  return renderWithRouter([{ path: '*', element }], path);
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Replace global fetch with a router of path -> handler; unknown paths answer 404. */
export function mockFetch(handlers: Record<string, Handler>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, 'http://localhost').pathname;
    const handler = handlers[path];
    return handler ? handler(url, init) : new Response('Not found', { status: 404, statusText: 'Not Found' });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
