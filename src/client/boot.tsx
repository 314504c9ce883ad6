/**
 * The app's code: hydration of the server's HTML (public pages) or a fresh render (every other page,
 * whose root arrives empty). main.tsx loads it, after the first paint on a server-rendered page.
 */
import { createRoot, hydrateRoot } from 'react-dom/client';
import { useEffect } from 'react';
import { App } from './app/app';
import { preloadPage } from './app/router';
import { markLive } from './lib/early-actions';
import { readInitialData, seedQueryCache } from './lib/initial-data';
import { queryClient } from './lib/query-client';

export async function start(root: HTMLElement): Promise<void> {
  if (!root.hasChildNodes()) {
    createRoot(root).render(<App client={queryClient} />);
    return;
  }
  seedQueryCache(queryClient, readInitialData(document));
  // The page's code first, so hydration draws it in one pass instead of suspending.
  await preloadPage(window.location.pathname).catch(() => undefined);
  hydrateRoot(root, <LivePage />);
}

function LivePage() {
  useEffect(() => markLive('page'), []);
  return <App client={queryClient} />;
}
