import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { INITIAL_DATA_ID, type InitialEntry } from '@shared/initial-data';
import { type CachedAnswer, cachedAnswer, sendCachedAnswer } from './cached-answer';
import { StaticAssets } from './static-assets';
import { sha256 } from '../security/crypto';
import { RecentlyUsed } from './recently-used';
import { escapeMarkup } from './markup';
import { ADMIN_PAGE_PATHS } from '@shared/app-paths';

/** Tags the server writes into the HTML for crawlers that run no JavaScript. */
export interface HeadTags {
  title: string;
  description?: string;
  canonical?: string;
  /** Further <link> tags, e.g. rel prev/next between the pages of a list. */
  links?: Array<{ rel: string; href: string }>;
  openGraph?: Record<string, string>;
  twitter?: Record<string, string>;
  jsonLd?: unknown[];
}

export interface HeadRenderer {
  /** Returns null when the path is not this renderer's. */
  match(pathname: string): Record<string, string> | null;
  /** `notFound` makes the app answer 404 (e.g. a blog slug that does not exist). */
  render(request: FastifyRequest, params: Record<string, string>): Promise<HeadTags | { notFound: true } | null>;
}

/** A public page the server renders in full (React's server renderer), with the data it was drawn from. */
export interface PageRenderer {
  /** Returns null when the path is not this page's; else its params. */
  match(pathname: string): Record<string, string> | null;
  /** The data the page reads (as query-cache entries); `notFound` answers 404. */
  load(params: Record<string, string>): Promise<{ entries: InitialEntry[]; notFound?: boolean }>;
}

/** The server build of the client (entry-server.tsx): the app's HTML for a path, drawn from the entries. */
export type RenderApp = (path: string, entries: readonly InitialEntry[]) => Promise<string>;

declare module 'fastify' {
  interface FastifyInstance {
    addHeadRenderer(renderer: HeadRenderer): void;
    addPageRenderer(renderer: PageRenderer): void;
    /** The built client's files, in memory. */
    staticAssets: StaticAssets;
  }
}

/**
 * Client routes of the product (docs/PRODUCT.md, Routes); any other path still gets the app, with status 404. Matched
 * without regard to case, like the client router.
 */
const APP_ROUTES = [
  /^\/$/,
  /^\/blog\/?$/i,
  // Pages of the blog list from 2 on (page 1 is /blog; ADR 0067).
  /^\/blog\/page\/(?:[2-9]|[1-9]\d{1,5})\/?$/i,
  /^\/blog\/[^/]+\/?$/i,
  // The catalogue and each published book's page (decision 0075).
  /^\/books\/?$/i,
  /^\/books\/[^/]+\/?$/i,
  /^\/login\/?$/i,
  /^\/forgot-password\/?$/i,
  /^\/reset-password\/?$/i,
  // An emailed sign-in link (decision 0084): a page with a button; opening it signs no one in.
  /^\/login-link\/?$/i,
  /^\/profile\/?$/i,
  /^\/checkout\/?$/i,
  /^\/dashboard\/?$/i,
  ...ADMIN_PAGE_PATHS,
  /^\/pay\/[^/]+\/?$/i,
  // A gift's claim link (issue 15).
  /^\/gift\/[^/]+\/?$/i,
  // The newsletter's confirmation link (decision 0069): a page with a button; opening it confirms nothing.
  /^\/newsletter\/confirm\/?$/i,
  // A free book's landing page and the page its confirmation mail opens (decision 0097).
  /^\/free\/[^/]+\/?$/i,
  /^\/free\/[^/]+\/confirm\/?$/i,
  // A review-copy campaign's application page (decision 0099).
  /^\/review-copies\/[a-z0-9-]+\/?$/i,
  // The reading room (issue 13): the free sample, an owned ebook or PDF, an owned audiobook.
  /^\/read\/sample\/?$/i,
  /^\/read\/\d+\/(ebook|pdf)\/?$/i,
  /^\/listen\/\d+\/?$/i,
];

// JSON inside <script> must not be able to close the element or open a comment, whatever the data holds.
export const safeJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function renderHead(tags: HeadTags): string {
  const lines = [`<title>${escapeMarkup(tags.title)}</title>`];
  if (tags.description) lines.push(`<meta name="description" content="${escapeMarkup(tags.description)}" />`);
  if (tags.canonical) lines.push(`<link rel="canonical" href="${escapeMarkup(tags.canonical)}" />`);
  for (const link of tags.links ?? []) lines.push(`<link rel="${escapeMarkup(link.rel)}" href="${escapeMarkup(link.href)}" />`);
  for (const [k, v] of Object.entries(tags.openGraph ?? {}))
    lines.push(`<meta property="og:${escapeMarkup(k)}" content="${escapeMarkup(v)}" />`);
  for (const [k, v] of Object.entries(tags.twitter ?? {}))
    lines.push(`<meta name="twitter:${escapeMarkup(k)}" content="${escapeMarkup(v)}" />`);
  for (const block of tags.jsonLd ?? [])
    lines.push(`<script type="application/ld+json">${safeJson(block)}</script>`);
  return lines.join('\n    ');
}

export function injectHead(html: string, tags: HeadTags): string {
  const withoutTitle = html.replace(/<title>[\s\S]*?<\/title>/i, () => '');
  const withoutDescription = tags.description
    ? withoutTitle.replace(/<meta\s+name="description"[^>]*>/i, () => '')
    : withoutTitle;
  // A function replacer: titles and descriptions are the author's text, and a string replacement would
  // expand `$&`, `$'` and `` $` `` in them into pieces of the page.
  const head = renderHead(tags);
  return withoutDescription.replace('</head>', () => `    ${head}\n  </head>`);
}

/**
 * Puts the rendered app into #root and the data it was drawn from beside it; drops the no-JS notice.
 * A rendered page reads without its code, which only makes it interactive: the entry is fetched at low
 * priority so the stylesheet, fonts and cover come first, and the app code's preload links go, since the
 * entry asks for that code after the first paint (client main.tsx). The shell pages, drawn by that code,
 * keep both.
 */
export function injectApp(html: string, appHtml: string, entries: readonly InitialEntry[]): string {
  // Function replacers: the rendered text may contain `$&` and the like, which a string replacement expands.
  const data = `<script id="${INITIAL_DATA_ID}" type="application/json">${safeJson(entries)}</script>`;
  return html
    .replace(/\s*<link rel="modulepreload"[^>]*>/gi, () => '')
    .replace(/<noscript>[\s\S]*?<\/noscript>\s*/i, () => '')
    .replace(/<script type="module"/g, () => '<script type="module" fetchpriority="low"')
    .replace('<div id="root"></div>', () => `<div id="root">${appHtml}</div>\n    ${data}`);
}

/**
 * Loads the server renderer built beside the client (dist/server-render/entry-server.js), or null when
 * there is none (a checkout without a build, or a test's client fixture).
 */
export async function loadRenderApp(clientDir: string): Promise<RenderApp | null> {
  const file = path.join(clientDir, '..', 'server-render', 'entry-server.js');
  if (!fs.existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as { renderApp?: RenderApp };
  return typeof module.renderApp === 'function' ? module.renderApp : null;
}

export interface SpaOptions {
  /** The built client (vite build output). */
  clientDir: string;
  /** The server renderer; without it every page gets the bare app shell for the browser to render. */
  renderApp?: RenderApp | null;
}

interface HtmlAnswer {
  status: number;
  body: CachedAnswer;
}

const htmlAnswer = async (status: number, html: string): Promise<HtmlAnswer> => ({
  status,
  body: await cachedAnswer(html, 'text/html; charset=utf-8'),
});

const PAGE_SECTIONS = ['blog', 'login'];

/**
 * Pages drawn lately, by what they were drawn from (path, head and data). When the cache's safety
 * net refills a page and these come out the same (the usual case: nothing changed), the page drawn before
 * is answered again: drawing the home page holds the event loop for tens of milliseconds, and every
 * reader of this instance would wait that long once a minute for a page that did not change. One set per
 * app, since each app has its own renderer.
 */
const RECENT_PAGES_LIMIT = 128;

/** A page answered but not kept in the cache (the cache forgets a load that fails). */
class NotKept extends Error {
  constructor(readonly answer: HtmlAnswer) {
    super('not kept');
  }
}

/**
 * Serves the built client: hashed assets cached for a year, everything else revalidated, and for every
 * other GET the app's page. Public pages (registered with addPageRenderer, and the not-found page)
 * arrive rendered on the server with their data; the rest get the shell the browser renders. Every page
 * is built once, compressed (brotli and gzip) once, and kept in the site cache under `html:` keys, which
 * admin changes clear with the data.
 */
export const spaPlugin = fp<SpaOptions>(async (app: FastifyInstance, opts) => {
  const headRenderers: HeadRenderer[] = [];
  const pageRenderers: PageRenderer[] = [];
  app.decorate('addHeadRenderer', (r: HeadRenderer) => {
    headRenderers.push(r);
  });
  app.decorate('addPageRenderer', (r: PageRenderer) => {
    pageRenderers.push(r);
  });
  const renderApp = opts.renderApp ?? null;
  const recentPages = new RecentlyUsed<HtmlAnswer>(RECENT_PAGES_LIMIT);
  const indexPath = path.join(opts.clientDir, 'index.html');
  let indexHtml: string | null = fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : null;

  // Every built file is answered from memory (static-assets.ts); real HTTP traffic to them does not even
  // reach the framework (app.ts), these routes serve app.inject and the first requests after start.
  const assets = await StaticAssets.load(opts.clientDir);
  app.decorate('staticAssets', assets);
  for (const file of assets.list()) {
    app.route({
      method: ['GET', 'HEAD'],
      url: file.urlPath,
      exposeHeadRoute: false,
      schema: { hide: true },
      config: { publicRead: true },
      handler: async (request, reply) => {
        const { status, headers, body } = assets.answer(file, request.raw);
        for (let i = 0; i < headers.length; i += 2) reply.header(headers[i], headers[i + 1]);
        return reply.status(status).send(body ?? undefined);
      },
    });
  }
  // Text files the build left uncompressed get their brotli and gzip forms once, without delaying the start.
  app.addHook('onReady', async () => {
    void assets.compressMissing().catch((error: Error) => app.log.warn({ err: error }, 'could not compress static files'));
  });

  async function headFor(request: FastifyRequest, pathname: string, html: string) {
    for (const renderer of headRenderers) {
      const params = renderer.match(pathname);
      if (!params) continue;
      const tags = await renderer.render(request, params);
      if (tags && 'notFound' in tags) return { html, notFound: true };
      if (tags) return { html: injectHead(html, tags), notFound: false };
      break;
    }
    return { html, notFound: false };
  }

  /**
   * The page with the app drawn into it. Should the renderer fail, the page still works: the browser
   * draws it from the bare shell, as it did before pages were rendered on the server.
   */
  async function drawApp(html: string, drawnAt: string, entries: readonly InitialEntry[]): Promise<string> {
    if (!renderApp) return html;
    try {
      return injectApp(html, await renderApp(drawnAt, entries), entries);
    } catch (error) {
      app.log.error({ err: error, path: drawnAt }, 'server rendering failed; answering the shell');
      return html;
    }
  }

  /** A public page: head tags, the rendered app and its data. A missing post is not kept (see below). */
  async function buildPage(request: FastifyRequest, pathname: string, shell: string, renderer: PageRenderer | null) {
    const head = await headFor(request, pathname, shell);
    const routeKnown = APP_ROUTES.some((r) => r.test(pathname));
    const page = renderApp && renderer ? await renderer.load(renderer.match(pathname) ?? {}) : null;
    const found = routeKnown && !head.notFound && !page?.notFound;
    // Paths that name nothing (any slug of a missing post) must not grow the cache without bound.
    if (!found) throw new NotKept(await htmlAnswer(404, page ? await drawApp(head.html, pathname, page.entries) : head.html));
    if (!page) return htmlAnswer(200, head.html);
    const fingerprint = sha256(`${pathname}\0${head.html}\0${JSON.stringify(page.entries)}`);
    const drawnBefore = recentPages.get(fingerprint);
    if (drawnBefore) return drawnBefore;
    const drawn = await drawApp(head.html, pathname, page.entries);
    const answer = await htmlAnswer(200, drawn);
    // A page the renderer failed on (the bare shell) is not kept for reuse: the next refill tries again.
    if (drawn !== head.html) recentPages.set(fingerprint, answer);
    return answer;
  }

  async function answerFor(request: FastifyRequest, pathname: string, shell: string): Promise<HtmlAnswer> {
    const cache = app.deps.cache;
    const renderer = pageRenderers.find((r) => r.match(pathname)) ?? null;
    const hasHead = headRenderers.some((r) => r.match(pathname));
    if (renderer || hasHead) {
      try {
        return await cache.get(`html:${pathname.replace(/(.)\/$/, '$1')}`, () =>
          buildPage(request, pathname, shell, renderer),
        );
      } catch (error) {
        if (error instanceof NotKept) return error.answer;
        throw error;
      }
    }
    if (APP_ROUTES.some((r) => r.test(pathname))) {
      // Account, checkout and admin pages: the browser renders them, from the one shell.
      return cache.get('html:shell', () => htmlAnswer(200, shell));
    }
    // The not-found page depends on the path only through the navigation's current section, so one
    // rendering per section serves every unknown path.
    const section = pathname.split('/')[1]?.toLowerCase() ?? '';
    const drawnAt = PAGE_SECTIONS.includes(section) ? `/${section}/-/-` : '/-/-';
    return cache.get(`html:404:${drawnAt}`, async () => htmlAnswer(404, await drawApp(shell, drawnAt, [])));
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0];
    if (pathname.startsWith('/api/') || pathname === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: `Route ${request.method} ${pathname} not found`, code: 'NOT_FOUND' });
    }
    if (/\.[a-z0-9]{2,5}$/i.test(pathname) && !pathname.startsWith('/blog/')) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    if (!indexHtml) {
      indexHtml = fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : null;
      if (!indexHtml) {
        return reply.status(503).type('text/plain').send('The site is not built yet: run npm run build.');
      }
    }
    const answer = await answerFor(request, pathname, indexHtml);
    // Pages are the same for everyone (signed-in parts fill in in the browser): every one carries its
    // ETag, and a 200 may be repeated by the front door like the public reads.
    reply.status(answer.status);
    return sendCachedAnswer(request, reply, answer.body, { cacheControl: 'no-cache', sameForEveryone: answer.status === 200 });
  });
});
