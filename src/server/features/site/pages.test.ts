/**
 * Server-rendered public pages: the HTML holds the content (hero, synopsis, prices, a post's body) and
 * the data the browser hydrates from; it is kept compressed in the site cache and an admin change is in
 * the very next page.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, formatPrice } from '@shared/constants';
// The production server loads the build of this same entry (dist/server-render); the test renders from source.
// eslint-disable-next-line no-restricted-imports
import { renderApp } from '@client/entry-server';
import { featuredBook } from '../../db/seed/content';
import { createTestApp, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { escapeMarkup } from '../../platform/http/markup';

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div>\s*<script id="initial-data"/.exec(html)?.[1] ?? '';
const initialData = (html: string) =>
  JSON.parse(/<script id="initial-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null') as Array<{
    key: unknown[];
    data?: unknown;
    error?: string;
  }>;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('server-rendered public pages', () => {
  let t: TestApp;
  let admin: TestAgent;
  beforeAll(async () => {
    // A long cache, as in production: the test proves admin changes clear the rendered pages.
    t = await createTestApp({ renderApp, env: { SITE_CACHE_MS: '600000' } });
    admin = (await adminAgent(t)).agent;
  });
  afterAll(async () => t.close());

  it('GET / holds the hero title, byline, synopsis and every price, with the data the browser hydrates from', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const root = rootOf(res.body);
    const words = text(root);
    expect(root).toMatch(/<h1 id="hero-title"[^>]*>What We Owe the Dead<\/h1>/);
    expect(words).toContain('by Callum Reyes');
    expect(words).toContain(featuredBook.synopsis[0]);
    for (const price of Object.values(DEFAULT_PRICES)) expect(words).toContain(formatPrice(price));
    expect(words).toContain('Choose Your Format');
    expect(res.body).not.toContain('<noscript>');
    // The page reads without its code, so the code waits behind the stylesheet, fonts and cover.
    expect(res.body).toContain('<script type="module" fetchpriority="low" src="/assets/app-abc123.js">');
    // Head tags are still the crawler's (site/seo.ts).
    expect(res.body).toContain('<meta property="og:type" content="book" />');
    const keys = initialData(res.body).map((e) => e.key[0]);
    // The home page embeds the three posts of its teaser, not the blog (ADR 0067).
    expect(keys).toEqual(['/api/site', '/api/store/formats', '/api/blog?limit=3']);
    // The embedded answers are the API's answers, byte for byte once parsed.
    const entries = initialData(res.body);
    expect(entries[0].data).toEqual((await t.app.inject({ url: '/api/site' })).json());
    expect(entries[1].data).toEqual((await t.app.inject({ url: '/api/store/formats' })).json());
    expect(entries[2].data).toEqual((await t.app.inject({ url: '/api/blog?limit=3' })).json());
    expect(entries[2].data).toHaveLength(3);
  });

  it('GET /blog lists the posts and GET /blog/{slug} holds the post body; an unknown slug is a 404 page', async () => {
    const published = (await t.app.inject({ url: "/api/blog" })).json() as Array<{ id: string; title: string }>;
    expect(published.length).toBeGreaterThan(1);
    const list = await t.app.inject({ url: '/blog' });
    expect(list.statusCode, list.body.slice(0, 300)).toBe(200);
    for (const post of published) expect(text(rootOf(list.body))).toContain(post.title);

    const post = (await t.app.inject({ url: `/api/blog/${published[0].id}` })).json() as { id: string; content: string };
    const page = await t.app.inject({ url: `/blog/${post.id}` });
    expect(page.statusCode, post.id).toBe(200);
    const root = rootOf(page.body);
    expect(root).toContain('data-testid="post-content"');
    const firstParagraph = /<p>([^<]{20,})/.exec(post.content)?.[1];
    expect(firstParagraph).toBeTruthy();
    expect(root).toContain(firstParagraph);
    expect(initialData(page.body)).toEqual([{ key: ["/api/blog", post.id], data: (await t.app.inject({ url: `/api/blog/${post.id}` })).json() }]);

    const missing = await t.app.inject({ url: '/blog/no-such-post' });
    expect(missing.statusCode).toBe(404);
    expect(text(rootOf(missing.body))).toContain('Error Loading Blog Post');
    expect(initialData(missing.body)[0]).toMatchObject({ key: ['/api/blog', 'no-such-post'], error: expect.stringMatching(/^404: /) });

    const unknown = await t.app.inject({ url: '/no/such/page' });
    expect(unknown.statusCode).toBe(404);
    expect(text(rootOf(unknown.body))).toContain('404 Page Not Found');
    expect(initialData(unknown.body)).toEqual([]);
  });

  it('pages for the browser to draw (account, admin) still get the bare shell', async () => {
    const res = await t.app.inject({ url: '/login' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('id="initial-data"');
    // Here the code draws the page: it keeps its normal priority, and the app's code is asked for early...
    expect(res.body).toContain('<script type="module" src="/assets/app-abc123.js">');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/boot-abc123.js">');
    // ...while a rendered page shows first and fetches that code after.
    const home = await t.app.inject({ url: '/' });
    expect(home.body).not.toContain('modulepreload');
  });

  it('compresses the page with brotli when accepted, else gzip, and keeps it in the cache under html: keys', async () => {
    const plain = await t.app.inject({ url: '/' });
    const br = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    const none = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(none.headers['content-encoding']).toBeUndefined();

    // Served from the cache: a render that would now fail is not reached.
    const loads: string[] = [];
    const original = t.app.deps.cache.get.bind(t.app.deps.cache);
    t.app.deps.cache.get = (<T>(key: string, load: () => Promise<T>) =>
      original(key, () => {
        loads.push(key);
        return load();
      })) as typeof t.app.deps.cache.get;
    try {
      await t.app.inject({ url: '/' });
      await t.app.inject({ url: '/blog' });
    } finally {
      t.app.deps.cache.get = original;
    }
    expect(loads).toEqual([]);
  });

  it('compresses API answers too (brotli when accepted, else gzip)', async () => {
    const plain = await t.app.inject({ url: '/api/site' });
    const br = await t.app.inject({ url: '/api/site', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await t.app.inject({ url: '/api/blog', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString()).length).toBeGreaterThan(1);
  });

  it('an admin edit of the site content is in the next / page', async () => {
    expect(text(rootOf((await t.app.inject({ url: '/' })).body))).toContain('by Callum Reyes');
    const current = (await admin.get('/api/admin/settings')).json();
    const res = await admin.put('/api/admin/settings', { ...current, authorName: 'Callum A. Reyes' });
    expect(res.statusCode).toBe(200);
    const home = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    const words = text(rootOf(zlib.brotliDecompressSync(home.rawPayload).toString()));
    expect(words).toContain('by Callum A. Reyes');
    expect(words).toContain('About Callum A. Reyes');
  });

  it('a post published by the admin is in the next /blog and / pages, and its own page exists', async () => {
    await t.app.inject({ url: '/blog' }); // cached before the change
    await t.app.inject({ url: '/blog/the-ferry-at-dawn' }); // a 404 is never kept
    const res = await admin.post('/api/admin/posts', {
      title: 'The Ferry at Dawn',
      slug: 'the-ferry-at-dawn',
      excerpt: 'A short note about the last chapter.',
      content: '<p>The ferry left at dawn and nobody on the quay looked back.</p>',
      tags: ['Writing'],
      isPublished: true,
    });
    expect(res.statusCode).toBe(201);
    expect(text(rootOf((await t.app.inject({ url: '/blog' })).body))).toContain('The Ferry at Dawn');
    expect(text(rootOf((await t.app.inject({ url: '/' })).body))).toContain('The Ferry at Dawn');
    const page = await t.app.inject({ url: '/blog/the-ferry-at-dawn' });
    expect(page.statusCode).toBe(200);
    expect(rootOf(page.body)).toContain('The ferry left at dawn and nobody on the quay looked back.');
  });

  it('embedded data cannot close its script element', async () => {
    const res = await admin.post('/api/admin/posts', {
      title: 'Closing </script><script>alert(1)</script> tags',
      slug: 'closing-tags',
      excerpt: 'An excerpt with </script> and <!-- in it.',
      content: '<p>Body.</p>',
      isPublished: true,
    });
    expect(res.statusCode).toBe(201);
    const html = (await t.app.inject({ url: '/blog' })).body;
    const data = /<script id="initial-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(data).not.toMatch(/<\/script|<!--/i);
    const entries = JSON.parse(data) as Array<{ data: { posts: Array<{ title: string; excerpt: string }> } }>;
    expect(entries[0].data.posts[0]).toMatchObject({ excerpt: 'An excerpt with </script> and <!-- in it.' });
  });
  it("titles and texts holding $', $` and $& come back literally, in one whole page", async () => {
    const title = "Dollars $' and $` and $& and $$ and $1";
    const excerpt = "Excerpt with $& and $' and $`.";
    const res = await admin.post('/api/admin/posts', { title, slug: 'dollar-signs', excerpt, content: '<p>Costs $& and $\'.</p>', isPublished: true });
    expect(res.statusCode).toBe(201);
    for (const url of ['/blog/dollar-signs', '/blog', '/']) {
      const html = (await t.app.inject({ url })).body;
      expect(html.match(/<\/html>/g), url).toHaveLength(1);
      expect(html.match(/<\/head>/g), url).toHaveLength(1);
      expect(text(rootOf(html)), url).toContain(title);
    }
    const post = (await t.app.inject({ url: '/blog/dollar-signs' })).body;
    expect(post).toContain(`<title>${escapeMarkup(title)}`);
    expect(post).toContain(`<meta name="description" content="${escapeMarkup(excerpt)}" />`);
    expect(text(rootOf(post))).toContain("Costs $& and $'.");
  });
});
