/**
 * The public pages the server renders in full (issue: first view): which data each one reads, in the
 * exact form of the API answer the browser would otherwise fetch for the same query key, so the first
 * render in the browser (hydration) finds it in its query cache and draws the same page.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BLOG_TEASER_COUNT } from '@shared/constants';
import { blogPageSchema, blogPostSchema, blogPostSummarySchema } from '@shared/schemas/blog';
import { siteAnswerSchema } from '@shared/schemas/site';
import { storeFormatsResponseSchema } from '@shared/schemas/checkout';
import type { InitialEntry } from '@shared/initial-data';
import { DEMO_READER } from '../../platform/operations/demo-reader';
import { listStoreFormats } from '../checkout/service';
import { getSiteData } from './service';
import { publishedBlog } from '../blog/service';
import { blogListPageOf } from './blog-pages';

const blogListSchema = z.array(blogPostSummarySchema);

export function registerPageRenderers(app: FastifyInstance): void {
  const { db } = app.deps.database;
  const { config, cache } = app.deps;

  // Same answers as GET /api/site, /api/store/formats, /api/blog and /api/blog/page/{n} (their response
  // schemas applied).
  const site = async (): Promise<InitialEntry> => ({
    key: ['/api/site'],
    data: z.encode(siteAnswerSchema, {
      ...(await cache.get('site', () => getSiteData(db))),
      demoLogin: config.demoLoginEnabled ? { username: DEMO_READER.username, password: DEMO_READER.password } : null,
    }),
  });
  const formats = async (): Promise<InitialEntry> => ({
    key: ['/api/store/formats'],
    data: z.encode(storeFormatsResponseSchema, await listStoreFormats(db)),
  });
  // The home page shows the latest few posts only, so it weighs the same whatever the archive holds.
  const latestPosts = async (): Promise<InitialEntry> => ({
    key: [`/api/blog?limit=${BLOG_TEASER_COUNT}`],
    data: z.encode(blogListSchema, (await publishedBlog(app.deps)).posts.slice(0, BLOG_TEASER_COUNT)),
  });

  app.addPageRenderer({
    match: (p) => (p === '/' ? {} : null),
    load: async () => ({ entries: await Promise.all([site(), formats(), latestPosts()]) }),
  });
  app.addPageRenderer({
    match: (p) => {
      const page = blogListPageOf(p);
      return page === null ? null : { page: String(page) };
    },
    load: async ({ page }) => {
      // The page's query key is the API path of its page (client features/blog/api.ts).
      const n = Number(page);
      const key = ['/api/blog/page', n];
      const found = await (await publishedBlog(app.deps)).page(n);
      if (!found) {
        const body = JSON.stringify({ message: 'There is no such page of the blog', code: 'NOT_FOUND' });
        return { entries: [{ key, error: `404: ${body}` }], notFound: true };
      }
      return { entries: [{ key, data: z.encode(blogPageSchema, found.page) }] };
    },
  });
  app.addPageRenderer({
    match: (p) => {
      const m = /^\/blog\/([^/]+)\/?$/i.exec(p);
      if (!m) return null;
      try {
        return { slug: decodeURIComponent(m[1]), raw: m[1] };
      } catch {
        return { slug: '', raw: m[1] }; // malformed escape: no such post
      }
    },
    load: async ({ slug, raw }) => {
      // The page's query key is the slug as the client router reads it from the path.
      const key = ['/api/blog', raw];
      const post = slug ? ((await (await publishedBlog(app.deps)).find(slug))?.post ?? null) : null;
      if (!post) {
        const body = JSON.stringify({ message: 'Blog post not found', code: 'NOT_FOUND' });
        return { entries: [{ key, error: `404: ${body}` }], notFound: true };
      }
      return { entries: [{ key, data: z.encode(blogPostSchema, post) }] };
    },
  });
}
