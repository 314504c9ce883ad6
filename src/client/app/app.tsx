/**
 * The whole app, as both the browser entry (main.tsx) and the server renderer (entry-server.tsx)
 * draw it: the same providers and routes, so the server's HTML is what hydration expects.
 * `ssrPath` is the request's path on the server; the browser reads its own location.
 */
import { StrictMode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Router } from '@client/lib/router';
import { Providers } from './providers';
import { AppRoutes } from './router';

export function App({ client, ssrPath }: { client: QueryClient; ssrPath?: string }) {
  return (
    <StrictMode>
      <Providers client={client}>
        <Router ssrPath={ssrPath}>
          <AppRoutes />
        </Router>
      </Providers>
    </StrictMode>
  );
}
