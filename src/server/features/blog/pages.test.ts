/**
 * The blog in pages (ADR 0067): GET /api/blog and GET /api/blog/page/{n} answer one page at a time, /blog
 * and /blog/page/{n} are server-rendered pages linked to each other, and the home page weighs the same
 * with 20 posts or 2,000. Posts are written straight into the database, as an archive imported in bulk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
// The production server loads the build of this same entry (dist/server-render); the test renders from source.
// eslint-disable-next-line no-restricted-imports
import { renderApp } from '@client/entry-server';
import { BLOG_PAGE_SIZE, BLOG_TEASER_COUNT } from '@shared/constants';
import type { BlogPage, BlogPostSummary } from '@shared/schemas/blog';
import { createTestApp, type TestApp } from '../../test/helpers';

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div>\s*<script id="initial-data"/.exec(html)?.[1] ?? '';
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');
const cards = (html: string) => rootOf(html).match(/Read More<span class="sr-only">/g)?.length ?? 0;

/** Adds archive posts `from`..`to` (numbered, same lengths), each a minute older than the one before, all before now. */
async function addPosts(t: TestApp, from: number, to: number) {
  const now = t.clock.now().toISOString();
  await t.database.db.execute(sql`
    INSERT INTO blog_posts (title, slug, content, excerpt, published_at, is_published, tags)
    SELECT 'Archive note ' || lpad(n::text, 4, '0'),
           'archive-note-' || lpad(n::text, 4, '0'),
           '<p>A note from the archive, kept for the record.</p>',
           'A short excerpt of the archive note, the same length for every post in this archive.',
           ${now}::timestamptz - interval '1 hour' - n * interval '1 minute',
           true,
           ARRAY['archive']
    FROM generate_series(${from}::int, ${to}::int) AS n`);
  // Bulk writes outside the admin API do not clear the public cache; a restart or the admin would.
  t.app.deps.cache.clear();
}

const get = (t: TestApp, url: string) => t.app.inject({ url });

describe('the blog in pages', () => {
  let t: TestApp;
  let seeded: number;
  const small: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp({ renderApp, env: { SITE_CACHE_MS: '600000' } });
    seeded = (await get(t, `/api/blog/page/1`)).json<BlogPage>().totalPosts;
    // 20 posts in all first; the big archive is added by the test that compares the two.
    await addPosts(t, 1, 20 - seeded);
    for (const url of ['/', '/blog']) small[url] = (await get(t, url)).body.length;
  }, 60_000);
  afterAll(async () => t.close());

  it('with 20 posts: /blog shows 12, page 2 the other 8, and they link to each other', async () => {
    const first = await get(t, '/blog');
    expect(first.statusCode).toBe(200);
    expect(cards(first.body)).toBe(BLOG_PAGE_SIZE);
    expect(first.body).toContain('<link rel="next" href="http://localhost:3000/blog/page/2" />');
    expect(first.body).not.toContain('rel="prev"');
    const words = text(rootOf(first.body));
    expect(words).toContain('Newer posts'); // the quiet placeholder keeps the row still
    expect(rootOf(first.body)).toMatch(/<a[^>]*href="\/blog\/page\/2"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="\/blog\/page\/2"/);
    expect(words).toContain('Page 1 of 2');

    const second = await get(t, '/blog/page/2');
    expect(second.statusCode).toBe(200);
    expect(cards(second.body)).toBe(20 - BLOG_PAGE_SIZE);
    expect(second.body).toContain('<link rel="prev" href="http://localhost:3000/blog" />');
    expect(second.body).not.toContain('rel="next"');
    expect(second.body).toContain('<link rel="canonical" href="http://localhost:3000/blog/page/2" />');
    expect(second.body).toContain('<title>Blog, page 2 of 2 | What We Owe the Dead</title>');
    expect(text(rootOf(second.body))).toContain('Page 2 of 2');
    // Every post is on exactly one of the two pages.
    const all = (await get(t, `/api/blog?limit=20`)).json<BlogPostSummary[]>();
    for (const post of all.slice(0, 12)) expect(rootOf(first.body)).toContain(`href="/blog/${post.id}"`);
    for (const post of all.slice(12)) {
      expect(rootOf(second.body)).toContain(`href="/blog/${post.id}"`);
      expect(rootOf(first.body)).not.toContain(`href="/blog/${post.id}"`);
    }
  });

  it('the home page carries the three latest posts only', async () => {
    const home = await get(t, '/');
    const latest = (await get(t, `/api/blog?limit=${BLOG_TEASER_COUNT}`)).json<BlogPostSummary[]>();
    expect(latest).toHaveLength(3);
    for (const post of latest) expect(rootOf(home.body)).toContain(`href="/blog/${post.id}"`);
    const fourth = (await get(t, '/api/blog?page=2&limit=3')).json<BlogPostSummary[]>()[0];
    expect(home.body).not.toContain(fourth.id);
  });

  it('a page past the last is the not-found page; other spellings of a page number are redirected', async () => {
    const beyond = await get(t, '/blog/page/3');
    expect(beyond.statusCode).toBe(404);
    expect(text(rootOf(beyond.body))).toContain('404 Page Not Found');
    for (const [from, to] of [
      ['/blog/page/1', '/blog'],
      ['/blog/page/0001', '/blog'],
      ['/blog/page/02', '/blog/page/2'],
    ]) {
      const res = await get(t, from);
      expect(res.statusCode, from).toBe(301);
      expect(res.headers.location, from).toBe(to);
    }
    for (const path of ['/blog/page/0', '/blog/page/abc', '/blog/page/-2', '/blog/page/2.5', '/blog/page/1234567']) {
      const res = await get(t, path);
      expect(res.statusCode, path).toBe(404);
      expect(text(rootOf(res.body)), path).toContain('404 Page Not Found');
    }
  });

  it('GET /api/blog/page/{n}: pages of 12 with their neighbours, 404 past the end, 400 for a bad number', async () => {
    const one = (await get(t, '/api/blog/page/1')).json<BlogPage>();
    expect(one).toMatchObject({ page: 1, pageSize: 12, totalPosts: 20, totalPages: 2, prevPage: null, nextPage: 2 });
    expect(one.posts).toHaveLength(12);
    const two = (await get(t, '/api/blog/page/2')).json<BlogPage>();
    expect(two).toMatchObject({ page: 2, pageSize: 12, totalPosts: 20, totalPages: 2, prevPage: 1, nextPage: null });
    expect(two.posts).toHaveLength(8);
    // The same posts, in the same order, as the plain list.
    const list = (await get(t, '/api/blog?limit=20')).json<BlogPostSummary[]>();
    expect([...one.posts, ...two.posts]).toEqual(list);

    const past = await get(t, '/api/blog/page/3');
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ message: 'There is no such page of the blog', code: 'NOT_FOUND' });
    for (const bad of ['0', 'abc', '-1', '1.5', '1e2', '%20']) {
      const res = await get(t, `/api/blog/page/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json(), bad).toMatchObject({ code: 'VALIDATION_ERROR', fields: { page: 'Page must be a whole number from 1' } });
    }
  });

  it('GET /api/blog keeps its plain list, one page of `limit` (default 12, at most 50) at a time', async () => {
    const all = (await get(t, '/api/blog?limit=20')).json<BlogPostSummary[]>();
    expect(all).toHaveLength(20);
    expect(new Set(all.map((p) => p.id)).size).toBe(20);
    expect(Object.keys(all[0]).sort()).toEqual(['author', 'bookId', 'bookTitle', 'coverImage', 'date', 'excerpt', 'id', 'tags', 'title']);
    expect((await get(t, '/api/blog')).json()).toEqual(all.slice(0, 12));
    expect((await get(t, '/api/blog?page=2')).json()).toEqual(all.slice(12));
    expect((await get(t, '/api/blog?page=3&limit=5')).json()).toEqual(all.slice(10, 15));
    expect((await get(t, '/api/blog?page=3')).statusCode).toBe(404);
    expect((await get(t, '/api/blog?page=5&limit=5')).statusCode).toBe(404);
    for (const bad of ['page=0', 'page=x', 'page=-1', 'limit=0', 'limit=51', 'limit=2.5', 'limit=']) {
      const res = await get(t, `/api/blog?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code, bad).toBe('VALIDATION_ERROR');
    }
  });

  it('with 2,000 posts the home page and /blog weigh what they did with 20; the pages still cover every post', async () => {
    await addPosts(t, 20 - seeded + 1, 2000 - seeded);
    const home = await get(t, '/');
    const blog = await get(t, '/blog');
    expect(home.statusCode).toBe(200);
    expect(blog.statusCode).toBe(200);
    // Same posts' lengths by construction: only "Page 1 of 2" becoming "Page 1 of 167" may differ.
    expect(Math.abs(home.body.length - small['/'])).toBeLessThanOrEqual(small['/'] * 0.01);
    expect(Math.abs(blog.body.length - small['/blog'])).toBeLessThanOrEqual(small['/blog'] * 0.01);
    expect(cards(home.body)).toBe(3);
    expect(cards(blog.body)).toBe(12);
    expect(text(rootOf(blog.body))).toContain('Page 1 of 167');

    // Walking "next" from the first page reaches every post once.
    const seen = new Set<string>();
    let page: number | null = 1;
    let pages = 0;
    while (page !== null) {
      const answer: BlogPage = (await get(t, `/api/blog/page/${page}`)).json<BlogPage>();
      for (const post of answer.posts) seen.add(post.id);
      pages += 1;
      page = answer.nextPage;
    }
    expect(pages).toBe(167);
    expect(seen.size).toBe(2000);

    const last = await get(t, '/blog/page/167');
    expect(last.statusCode).toBe(200);
    expect(cards(last.body)).toBe(2000 - 166 * 12);
    expect(last.body).toContain('<link rel="prev" href="http://localhost:3000/blog/page/166" />');
    expect(last.body).not.toContain('rel="next"');
    expect((await get(t, '/blog/page/168')).statusCode).toBe(404);

    // The sitemap lists every post.
    const sitemap = (await get(t, '/sitemap.xml')).body;
    const locs = sitemap.match(/<loc>[^<]+\/blog\/[^<]+<\/loc>/g) ?? [];
    expect(locs).toHaveLength(2000);
    expect(sitemap).toContain('<loc>http://localhost:3000/blog/archive-note-1994</loc>');
  }, 120_000);
});
