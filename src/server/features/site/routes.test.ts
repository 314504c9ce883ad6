import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { seed } from '../../platform/operations/seed';
import { blogPosts as seededPosts, featuredBook, upcomingBook } from '../../db/seed/content';
import { DEMO_READER } from '../../platform/operations/demo-reader';
import { verifyPassword } from '../../platform/security/passwords';
import { createTestApp, TestAgent, type TestApp } from '../../test/helpers';

function jsonLdBlocks(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}
const meta = (html: string, attr: 'property' | 'name', key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/:/g, ':')}" content="([^"]*)"`).exec(html)?.[1];

describe('site API, head tags and feeds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://www.example.com' } });
  });
  afterAll(async () => t.close());

  it('GET /api/site answers the content, books, reviews from the database, gallery and demo login', async () => {
    const res = await t.app.inject({ url: '/api/site' });
    expect(res.statusCode).toBe(200);
    const site = res.json();
    expect(site.featuredBook).toMatchObject({ title: featuredBook.title, tagline: featuredBook.tagline });
    expect(site.upcomingBook).toMatchObject({ title: upcomingBook.title, teaserVideoId: upcomingBook.teaserVideoId });
    expect(site.reviews.map((r: { rating: number }) => r.rating)).toEqual([5, 4.5, 5]);
    expect(site.rating).toEqual({ value: 4.8, count: 3 });
    expect(site.verifiedReviews).toEqual([]);
    expect(site.verifiedRating).toBeNull();
    expect(site.gallery).toHaveLength(3);
    expect(site.content.excerpt.title).toBe('The Return');
    expect(site.formats.map((f: { id: string; price: number }) => [f.id, f.price])).toEqual([
      ['hardcover', 2499],
      ['paperback', 1699],
      ['ebook', 999],
      ['audiobook', 1499],
    ]);
    expect(site.demoLogin).toEqual({ username: DEMO_READER.username, password: DEMO_READER.password });
  });

  it('serves the home HTML with title, description, canonical, Open Graph, Twitter and a Book JSON-LD', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<title>What We Owe the Dead | Callum Reyes</title>');
    expect(html).toContain('<link rel="canonical" href="https://www.example.com/" />');
    expect(meta(html, 'property', 'og:title')).toBe('What We Owe the Dead | Callum Reyes');
    expect(meta(html, 'property', 'og:image')).toBe('https://www.example.com/images/og-image.png');
    expect(meta(html, 'property', 'og:url')).toBe('https://www.example.com/');
    expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    const [book] = jsonLdBlocks(html);
    expect(book).toMatchObject({ '@type': 'Book', name: featuredBook.title, author: { name: 'Callum Reyes' } });
    // The early-reader quotes are not a rating: with no approved verified review there is none (decision 0085).
    expect(book.aggregateRating).toBeUndefined();
    expect(book.review).toBeUndefined();
    const offers = book.offers as Array<Record<string, string>>;
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency])).toEqual([
      ['Hardcover', '24.99', 'GBP'],
      ['Paperback', '16.99', 'GBP'],
      ['E-Book', '9.99', 'GBP'],
      ['Audiobook', '14.99', 'GBP'],
    ]);
    expect(offers.every((o) => o.availability === 'https://schema.org/InStock')).toBe(true);
  });

  it('serves a post HTML with its own tags and BlogPosting, and 404 for an unknown slug', async () => {
    const post = seededPosts[1];
    const res = await t.app.inject({ url: `/blog/${post.slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<link rel="canonical" href="https://www.example.com/blog/${post.slug}" />`);
    expect(meta(res.body, 'property', 'og:type')).toBe('article');
    expect(meta(res.body, 'property', 'og:description')).toBe(post.excerpt.replace(/&/g, '&amp;'));
    const [posting] = jsonLdBlocks(res.body);
    expect(posting).toMatchObject({ '@type': 'BlogPosting', headline: post.title, datePublished: post.publishedAt });
    const missing = await t.app.inject({ url: '/blog/not-a-post' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('og:title');
    expect([400, 404]).toContain((await t.app.inject({ url: '/blog/%E0%A4%A' })).statusCode);
  });

  it('serves sitemap.xml, robots.txt and an RSS feed', async () => {
    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('<loc>https://www.example.com/</loc>');
    for (const p of seededPosts) expect(sitemap.body).toContain(`<loc>https://www.example.com/blog/${p.slug}</loc>`);

    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Disallow: /admin');
    expect(robots.body).toContain('Sitemap: https://www.example.com/sitemap.xml');

    const rss = await t.app.inject({ url: '/rss.xml' });
    expect(rss.headers['content-type']).toContain('application/rss+xml');
    expect(rss.body.match(/<item>/g)).toHaveLength(seededPosts.length);
    expect(rss.body).toContain(`<link>https://www.example.com/blog/${seededPosts[0].slug}</link>`);
  });

  it('seeds a demo reader who can sign in with the published credentials', async () => {
    await seed(t.database.db, t.app.deps.files, { demoReader: true });
    await seed(t.database.db, t.app.deps.files, { demoReader: true }); // idempotent
    const rows = await t.database.db.select().from(users).where(eq(users.username, DEMO_READER.username));
    expect(rows).toHaveLength(1);
    expect(rows[0].role).toBe('user');
    expect(await verifyPassword(rows[0].passwordHash, DEMO_READER.password)).toBe(true);

    // The published password is everyone's: nobody may change it and lock the others out.
    const agent = new TestAgent(t.app);
    const login = await agent.post('/api/users/login', { username: DEMO_READER.username, password: DEMO_READER.password });
    expect(login.statusCode).toBe(200);
    const change = await agent.post(`/api/users/${rows[0].id}/change-password`, {
      currentPassword: DEMO_READER.password,
      newPassword: 'Taken-Over-2026!',
    });
    expect(change.statusCode).toBe(403);
    expect(change.json().message).toBe("The demo account's password cannot be changed");
    const [still] = await t.database.db.select().from(users).where(eq(users.username, DEMO_READER.username));
    expect(await verifyPassword(still.passwordHash, DEMO_READER.password)).toBe(true);

    // Started later with demo login off, the published password stops working.
    await seed(t.database.db, t.app.deps.files, { demoReader: false });
    const [locked] = await t.database.db.select().from(users).where(eq(users.username, DEMO_READER.username));
    expect(await verifyPassword(locked.passwordHash, DEMO_READER.password)).toBe(false);
  });
});

describe('demo login switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEMO_LOGIN: 'false' } });
  });
  afterAll(async () => t.close());

  it('answers demoLogin null so the button is hidden', async () => {
    expect((await t.app.inject({ url: '/api/site' })).json().demoLogin).toBeNull();
  });
});
