import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts } from '../../db/schema';
import { blogPosts as seededPosts } from '../../db/seed/content';
import { createTestApp, type TestApp } from '../../test/helpers';
import { sanitizePostHtml } from './sanitize';

const HOSTILE = `<p>Hello <strong>reader</strong></p>
<script>alert('xss')</script>
<img src="x" onerror="alert(1)" alt="a">
<p onclick="steal()">Click</p>
<a href="javascript:alert(1)">bad link</a>
<a href="JaVaScRiPt:alert(2)">bad link 2</a>
<a href="https://example.com/page">good link</a>
<a href="/#purchase">inside link</a>
<iframe src="https://evil.example"></iframe>
<p style="background:url(javascript:alert(1))">styled</p>`;

function expectClean(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/alert\('xss'\)/);
  expect(html).not.toMatch(/onerror/i);
  expect(html).not.toMatch(/onclick/i);
  expect(html).not.toMatch(/javascript:/i);
  expect(html).not.toMatch(/<iframe/i);
  expect(html).not.toMatch(/style=/i);
  expect(html).toContain('<strong>reader</strong>');
  expect(html).toContain('href="https://example.com/page"');
  expect(html).toContain('rel="noopener noreferrer"');
  expect(html).toContain('href="/#purchase"');
}

describe('sanitizePostHtml', () => {
  it('removes scripts, event handlers, javascript: links, frames and inline styles but keeps editorial markup', () => {
    expectClean(sanitizePostHtml(HOSTILE));
  });

  it('keeps images uploaded to this site with their description and size, and drops every other image', () => {
    const own = '/media/images/0123456789abcdef0123456789abcdef.png';
    const html = sanitizePostHtml(
      `<p>Harbour</p><img src="${own}" alt="The harbour wall at dusk" width="1200" height="800" onerror="x()">` +
        `<img src="${own}" alt="Odd size" width="100%" height="80">` +
        '<img src="https://tracker.example/pixel.gif" alt="pixel">' +
        '<img src="/images/covers/what-we-owe-the-dead-front.svg" alt="site file">' +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">' +
        '<img src="/media/images/../../api/users.png" alt="escape">' +
        '<img alt="no source">',
    );
    expect(html).toBe(
      `<p>Harbour</p><img src="${own}" alt="The harbour wall at dusk" width="1200" height="800" loading="lazy" decoding="async" />` +
        `<img src="${own}" alt="Odd size" loading="lazy" decoding="async" />`,
    );
  });

  it('leaves the seeded posts readable (headings, lists, quotes, links)', () => {
    const html = sanitizePostHtml(seededPosts[0].content);
    expect(html).toContain('<h2>');
    expect(html).toContain('<blockquote>');
    expect(html).toContain('<a href="/#purchase">');
  });
});

describe('blog API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('lists the published posts newest first, with the slug as id', async () => {
    const res = await t.app.inject({ url: '/api/blog' });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(6);
    expect(list.map((p: { id: string }) => p.id)).toEqual(seededPosts.map((p) => p.slug));
    const dates = list.map((p: { date: string }) => Date.parse(p.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(list[0]).toMatchObject({ title: seededPosts[0].title, author: 'Callum Reyes', bookId: expect.any(Number), bookTitle: 'The Quiet Inheritance' });
    expect(list[0]).not.toHaveProperty('content');
  });

  it('answers one post by slug and 404 with the error shape for an unknown one', async () => {
    const res = await t.app.inject({ url: `/api/blog/${seededPosts[2].slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: seededPosts[2].slug, title: seededPosts[2].title, bookId: null, bookTitle: null });
    expect(res.json().content).toContain('<blockquote>');
    const missing = await t.app.inject({ url: '/api/blog/no-such-post' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Blog post not found', code: 'NOT_FOUND' });
  });

  it('hides unpublished and future posts from the list and by slug', async () => {
    const now = t.clock.now().getTime();
    await t.database.db.insert(blogPosts).values([
      { slug: 'draft-post', title: 'Draft', content: '<p>x</p>', excerpt: 'x', isPublished: false, publishedAt: new Date(now - 1000) },
      { slug: 'future-post', title: 'Future', content: '<p>x</p>', excerpt: 'x', publishedAt: new Date(now + 86_400_000) },
    ]);
    const ids = (await t.app.inject({ url: '/api/blog' })).json().map((p: { id: string }) => p.id);
    expect(ids).not.toContain('draft-post');
    expect(ids).not.toContain('future-post');
    expect((await t.app.inject({ url: '/api/blog/draft-post' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/blog/future-post' })).statusCode).toBe(404);
    t.clock.advance(2 * 86_400_000);
    expect((await t.app.inject({ url: '/api/blog/future-post' })).statusCode).toBe(200);
  });

  it('serves a stored hostile post clean, whatever path wrote it', async () => {
    await t.database.db.insert(blogPosts).values({
      slug: 'hostile-post',
      title: 'Hostile',
      content: HOSTILE,
      excerpt: 'x',
      publishedAt: new Date(t.clock.now().getTime() - 1000),
    });
    const res = await t.app.inject({ url: '/api/blog/hostile-post' });
    expect(res.statusCode).toBe(200);
    expectClean(res.json().content);
  });
});
