/**
 * Server renderer of the public pages: the same App the browser hydrates, drawn from the data the
 * server embeds beside it. Built by `vite build --ssr` into dist/server-render and loaded by the
 * server (platform/page-render.ts), which caches what it returns.
 */
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './app/app';
import { SERVER_RENDERED_PAGES } from './app/router';
import { preloadAll } from './lib/preloadable';
import type { InitialEntry } from './lib/initial-data';
import { seedQueryCache } from './lib/initial-data';
import { createQueryClient } from './lib/query-client';

let pagesLoaded: Promise<unknown> | null = null;

/** The HTML inside #root for `path`, drawn from `entries` (and nothing else: no request is made). */
export async function renderApp(path: string, entries: readonly InitialEntry[]): Promise<string> {
  // Every page, then what their modules declare (sections loaded lazily in the browser).
  pagesLoaded ??= Promise.all(SERVER_RENDERED_PAGES.map((page) => page.preload())).then(preloadAll);
  await pagesLoaded;
  const client = createQueryClient();
  // A query without an entry stays pending here (nothing fetches during a server render), exactly as
  // in the browser's first frame, where it starts its request after hydration.
  seedQueryCache(client, entries);
  const errors: unknown[] = [];
  try {
    // Waits for every boundary; an error anywhere fails the render rather than leaving a part of the
    // page for the browser to draw (the server then answers the bare shell and logs why).
    const { prelude } = await prerenderToNodeStream(<App client={client} ssrPath={path} />, {
      // One piece, no boundary sent apart to be put in place by an inline script (the CSP allows none).
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onError(error) {
        errors.push(error);
      },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
    if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    client.clear();
  }
}
