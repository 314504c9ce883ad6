/**
 * Browser entry: fonts, styles, the data the server embedded, then hydration of the server's HTML
 * (public pages) or a fresh render (every other page, whose root arrives empty).
 */
import './fonts.css';
import './styles.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { useEffect } from 'react';
import { App } from './app/app';
import { preloadPage } from './app/router';
import { holdUntilLive, markLive } from './lib/early-actions';
import { readInitialData, seedQueryCache } from './lib/initial-data';
import { queryClient } from './lib/query-client';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

async function start(root: HTMLElement) {
  if (!root.hasChildNodes()) {
    createRoot(root).render(<App client={queryClient} />);
    return;
  }
  // Presses on the server's HTML wait for the page to be live (lib/early-actions).
  holdUntilLive('page', root);
  seedQueryCache(queryClient, readInitialData(document));
  // The page's code first, so hydration draws it in one pass instead of suspending.
  await preloadPage(window.location.pathname).catch(() => undefined);
  hydrateRoot(root, <LivePage />);
}

function LivePage() {
  useEffect(() => markLive('page'), []);
  return <App client={queryClient} />;
}

void start(container);
