/** Render helpers for component tests: a fresh query client and a memory router per test. */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { RouteObject } from 'react-router';
import { createQueryClient } from '@client/lib/query-client';

export function renderWithRouter(routes: RouteObject[], initialPath = '/') {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
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
