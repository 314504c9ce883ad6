import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { StaticAssets } from './static-assets';

/** Tags the server writes into the HTML for crawlers that run no JavaScript. */
export interface HeadTags {
  title: string;
  description?: string;
  canonical?: string;
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

declare module 'fastify' {
  interface FastifyInstance {
    addHeadRenderer(renderer: HeadRenderer): void;
    /** The built client's files, in memory. */
    staticAssets: StaticAssets;
  }
}

/** Client routes of the product (SPEC 2); any other path still gets the app, with status 404. */
const APP_ROUTES = [
  /^\/$/,
  /^\/blog\/?$/,
  /^\/blog\/[^/]+\/?$/,
  /^\/login\/?$/,
  /^\/forgot-password\/?$/,
  /^\/reset-password\/?$/,
  /^\/profile\/?$/,
  /^\/checkout\/?$/,
  /^\/dashboard\/?$/,
  /^\/admin(\/.*)?$/,
  /^\/pay\/[^/]+\/?$/,
  // The reading room (issue 13): the free sample, an owned ebook or PDF, an owned audiobook.
  /^\/read\/sample\/?$/,
  /^\/read\/\d+\/(ebook|pdf)\/?$/,
  /^\/listen\/\d+\/?$/,
];

const escapeHtml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// JSON inside <script> must not be able to close the element.
const safeJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

export function renderHead(tags: HeadTags): string {
  const lines = [`<title>${escapeHtml(tags.title)}</title>`];
  if (tags.description) lines.push(`<meta name="description" content="${escapeHtml(tags.description)}" />`);
  if (tags.canonical) lines.push(`<link rel="canonical" href="${escapeHtml(tags.canonical)}" />`);
  for (const [k, v] of Object.entries(tags.openGraph ?? {}))
    lines.push(`<meta property="og:${escapeHtml(k)}" content="${escapeHtml(v)}" />`);
  for (const [k, v] of Object.entries(tags.twitter ?? {}))
    lines.push(`<meta name="twitter:${escapeHtml(k)}" content="${escapeHtml(v)}" />`);
  for (const block of tags.jsonLd ?? [])
    lines.push(`<script type="application/ld+json">${safeJson(block)}</script>`);
  return lines.join('\n    ');
}

export function injectHead(html: string, tags: HeadTags): string {
  const withoutTitle = html.replace(/<title>[\s\S]*?<\/title>/i, '');
  const withoutDescription = tags.description
    ? withoutTitle.replace(/<meta\s+name="description"[^>]*>/i, '')
    : withoutTitle;
  return withoutDescription.replace('</head>', `    ${renderHead(tags)}\n  </head>`);
}

export interface SpaOptions {
  /** The built client (vite build output). */
  clientDir: string;
}

/**
 * Serves the built client: hashed assets cached for a year, everything else revalidated, and the app's
 * index.html for every non-API path so the client router can take over.
 */
export const spaPlugin = fp<SpaOptions>(async (app: FastifyInstance, opts) => {
  const renderers: HeadRenderer[] = [];
  app.decorate('addHeadRenderer', (r: HeadRenderer) => {
    renderers.push(r);
  });
  const indexPath = path.join(opts.clientDir, 'index.html');
  const built = fs.existsSync(indexPath);
  let indexHtml: string | null = built ? fs.readFileSync(indexPath, 'utf8') : null;

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
    let status = APP_ROUTES.some((r) => r.test(pathname)) ? 200 : 404;
    let html = indexHtml;
    for (const renderer of renderers) {
      const params = renderer.match(pathname);
      if (!params) continue;
      const tags = await renderer.render(request, params);
      if (tags && 'notFound' in tags) status = 404;
      else if (tags) html = injectHead(html, tags);
      break;
    }
    return reply
      .status(status)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  });
});
