import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { bootPreload } from './scripts/vite-boot-preload';
import { foliateSandbox } from './scripts/vite-foliate-sandbox';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The lazy chunks whose imports are fetched at the same time as the chunk itself: the server-rendered
 * pages, which hydration waits for, and the parts of the public pages loaded after the first paint.
 * Every other lazy page (account, checkout, reading room, admin) fetches its imports once its own chunk
 * has arrived: one more round trip on the way there, instead of the whole list in every first view.
 */
const PRELOADED_WITH_DEPENDENCIES = /^assets\/(home|lazy-sections|home-section|blog-list|blog-post|catalogue|not-found|footer|toaster|account-menu|purchase-section)-/;

function preloadedDependencies(chunk: string, dependencies: string[], context: { hostType: 'html' | 'js' }): string[] {
  if (context.hostType === 'html' || PRELOADED_WITH_DEPENDENCIES.test(chunk)) return dependencies;
  return [];
}

// `vite build` makes the browser client; `vite build --ssr entry-server.tsx` the server renderer of the
// public pages, which the server loads from dist/server-render.
export default defineConfig(({ isSsrBuild }) => ({
  root: r('./src/client'),
  publicDir: r('./public'),
  plugins: [foliateSandbox(), react(), tailwindcss(), ...(isSsrBuild ? [] : [bootPreload()])],
  resolve: {
    alias: {
      '@shared': r('./src/shared'),
      '@client': r('./src/client'),
    },
  },
  build: isSsrBuild
    ? { outDir: r('./dist/server-render'), emptyOutDir: true, sourcemap: false, target: 'node24', copyPublicDir: false }
    : {
        outDir: r('./dist/client'),
        emptyOutDir: true,
        sourcemap: false,
        target: 'es2022',
        // Every browser that runs ES2022 modules knows <link rel="modulepreload">: no polyfill in the entry.
        // A lazy chunk's dependencies are fetched beside it only for what the public pages load (decision
        // 0092): the list of every other page's dependencies would travel in the home page's first script.
        modulePreload: { polyfill: false, resolveDependencies: preloadedDependencies },
        rolldownOptions: {
          output: {
            // The framework and the few small pieces every page shares travel in one file: each extra
            // request costs about a kilobyte of headers, more than these modules weigh.
            codeSplitting: {
              groups: [
                {
                  name: 'core',
                  test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|wouter|regexparam|use-sync-external-store|clsx)[\\/]|src[\\/]shared[\\/]constants|src[\\/]client[\\/](lib[\\/](cn|responsive-image|image-variants|api-client|router|session|scroll-to-anchor)|components[\\/]ui[\\/](button|skeleton|spinner|toast-store))\.|rolldown[\\/:]runtime|lucide-react[\\/].*icons[\\/](shopping-bag|book-open)\./,
                },
              ],
            },
          },
        },
      },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/pay': 'http://127.0.0.1:3000',
      '/files': 'http://127.0.0.1:3000',
      '/sitemap.xml': 'http://127.0.0.1:3000',
      '/robots.txt': 'http://127.0.0.1:3000',
      '/rss.xml': 'http://127.0.0.1:3000',
    },
  },
}));
