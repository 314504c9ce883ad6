import zlib from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts } from '../../db/schema';
import {
  createTestApp,
  createTestDatabase,
  createUser,
  redisAvailable,
  redisUrl,
  signedInAgent,
  type TestAgent,
  type TestApp,
} from '../../test/helpers';

const CACHED = { SITE_CACHE_MS: '60000' };
const PUBLIC_READS = ['/api/books/featured', '/api/books', '/api/site', '/api/blog'];

async function adminOf(t: TestApp): Promise<TestAgent> {
  const admin = await createUser(t.database, { role: 'admin' });
  return signedInAgent(t.app, admin.id);
}

describe('public reads from the cache', () => {
  let t: TestApp;
  let admin: TestAgent;
  beforeAll(async () => {
    t = await createTestApp({ env: CACHED });
    admin = await adminOf(t);
  });
  afterAll(async () => t.close());

  it.each(PUBLIC_READS)('%s carries a strong ETag and answers 304 to a matching If-None-Match', async (url) => {
    const first = await t.app.inject({ url });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');

    const again = await t.app.inject({ url });
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toBe(first.body);

    const revalidated = await t.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);

    const listed = await t.app.inject({ url, headers: { 'if-none-match': `"other", ${etag}` } });
    expect(listed.statusCode).toBe(304);
    const stale = await t.app.inject({ url, headers: { 'if-none-match': '"not-this-one"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it('sends the brotli or gzip form made at fill time, each with its own ETag, and 304 for either', async () => {
    const plain = await t.app.inject({ url: '/api/site' });
    const br = await t.app.inject({ url: '/api/site', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);

    const gz = await t.app.inject({ url: '/api/site', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const refused = await t.app.inject({ url: '/api/site', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);

    const etags = new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]);
    expect(etags.size).toBe(3);
    for (const tag of etags) {
      const res = await t.app.inject({ url: '/api/site', headers: { 'if-none-match': tag as string } });
      expect(res.statusCode).toBe(304);
    }
  });

  it('an admin change gives a new body and a new ETag at once; the old ETag gets the new answer', async () => {
    const before = await t.app.inject({ url: '/api/books' });
    const book = before.json()[0];
    const res = await admin.put(`/api/admin/books/${book.id}`, {
      title: book.title,
      tagline: 'A tagline changed by the author just now.',
      synopsis: book.synopsis,
      coverImage: book.coverImage,
      yearPublished: book.yearPublished,
      publisher: book.publisher,
      featured: book.featured,
    });
    expect(res.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/api/books', headers: { 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.json()[0].tagline).toBe('A tagline changed by the author just now.');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await t.app.inject({ url: `/api/books/${book.id}` })).json().tagline).toBe(
      'A tagline changed by the author just now.',
    );
  });

  it('shows no stale page after publishing a post: list, post answer and post page', async () => {
    const slug = `fresh-notes-${Date.now().toString(36)}`;
    // Read everything first, so each is cached before the change.
    expect((await t.app.inject({ url: '/api/blog' })).json().map((p: { id: string }) => p.id)).not.toContain(slug);
    expect((await t.app.inject({ url: `/api/blog/${slug}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/blog/${slug}` })).statusCode).toBe(404);

    const created = await admin.post('/api/admin/posts', {
      title: 'Fresh Notes From the Desk',
      slug,
      excerpt: 'What changed this week.',
      content: '<p>New chapter plans.</p>',
      isPublished: false,
    });
    expect(created.statusCode).toBe(201);
    // A draft stays out of sight.
    expect((await t.app.inject({ url: `/api/blog/${slug}` })).statusCode).toBe(404);

    const published = await admin.post(`/api/admin/posts/${created.json().id}/publish`, { isPublished: true });
    expect(published.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/blog' })).json()[0].id).toBe(slug);
    const post = await t.app.inject({ url: `/api/blog/${slug}` });
    expect(post.statusCode).toBe(200);
    expect(post.json().content).toBe('<p>New chapter plans.</p>');
    const page = await t.app.inject({ url: `/blog/${slug}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Fresh Notes From the Desk | ');

    const unpublished = await admin.post(`/api/admin/posts/${created.json().id}/publish`, { isPublished: false });
    expect(unpublished.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/blog/${slug}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/blog/${slug}` })).statusCode).toBe(404);
  });

  it('a post scheduled for later appears when it is due, without any admin change', async () => {
    const slug = `scheduled-${Date.now().toString(36)}`;
    const due = new Date(t.clock.now().getTime() + 60 * 60 * 1000);
    await t.database.db.insert(blogPosts).values({
      title: 'Scheduled Thoughts',
      slug,
      content: '<p>Later.</p>',
      excerpt: 'Not yet.',
      publishedAt: due,
      isPublished: true,
    });
    // Another instance wrote it (no clear here): the cache is refilled anyway by the next admin change...
    t.app.deps.cache.clear();
    expect((await t.app.inject({ url: '/api/blog' })).json().map((p: { id: string }) => p.id)).not.toContain(slug);
    expect((await t.app.inject({ url: `/api/blog/${slug}` })).statusCode).toBe(404);
    // ...and when its time comes the cached blog goes out of date by itself.
    t.clock.advance(60 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/blog' })).json()[0].id).toBe(slug);
    expect((await t.app.inject({ url: `/api/blog/${slug}` })).statusCode).toBe(200);
  });

  it('answers public reads of a signed-in reader the same, without looking the session up', async () => {
    const reader = await createUser(t.database);
    const agent = await signedInAgent(t.app, reader.id);
    const anonymous = await t.app.inject({ url: '/api/books/featured' });
    const signedIn = await agent.get('/api/books/featured');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.body).toBe(anonymous.body);
    expect(signedIn.headers.etag).toBe(anonymous.headers.etag);
  });

  it('keeps 404s in the error shape', async () => {
    const res = await t.app.inject({ url: '/api/books/999999' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Book not found', code: 'NOT_FOUND' });
    expect((await t.app.inject({ url: '/api/books/999999/prices' })).statusCode).toBe(404);
  });
});

describe('public reads repeated by the front door (real HTTP)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ env: CACHED });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => t.close());

  it('answers a repeated read with the same bytes and headers, 304 included, and never after an admin change', async () => {
    const first = await fetch(`${base}/api/books`, { headers: { 'accept-encoding': 'identity' } });
    const firstBody = await first.text();
    expect(t.app.frontDoor.remembered.has('/api/books')).toBe(true);
    const second = await fetch(`${base}/api/books`, { headers: { 'accept-encoding': 'identity' } });
    expect(await second.text()).toBe(firstBody);
    for (const name of ['etag', 'cache-control', 'content-type', 'content-security-policy', 'x-content-type-options']) {
      expect(second.headers.get(name)).toBe(first.headers.get(name));
    }
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    const revalidated = await fetch(`${base}/api/books`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);

    const admin = await adminOf(t);
    const book = JSON.parse(firstBody)[0];
    const res = await admin.put(`/api/admin/books/${book.id}`, {
      title: book.title,
      tagline: 'Seen at once through the front door.',
      synopsis: book.synopsis,
      coverImage: book.coverImage,
      yearPublished: book.yearPublished,
      publisher: book.publisher,
      featured: book.featured,
    });
    expect(res.statusCode).toBe(200);
    expect(t.app.frontDoor.remembered.size).toBe(0);
    const after = await (await fetch(`${base}/api/books`)).json();
    expect(after[0].tagline).toBe('Seen at once through the front door.');
  });
});

async function expectWithinOneSecond(read: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < 1000) {
    if (await read()) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the other instance still served the old answer after 1 s');
}

async function crossInstanceChange(a: TestApp, b: TestApp) {
  const admin = await adminOf(a);
  const before = (await b.app.inject({ url: '/api/site' })).json();
  expect((await b.app.inject({ url: '/api/books/featured' })).statusCode).toBe(200);
  const current = (await admin.get('/api/admin/settings')).json();
  const name = `Author ${Math.random().toString(36).slice(2, 7)}`;
  expect(before.content.authorName).not.toBe(name);
  const res = await admin.put('/api/admin/settings', { ...current, authorName: name });
  expect(res.statusCode).toBe(200);
  await expectWithinOneSecond(async () => (await b.app.inject({ url: '/api/site' })).json().content.authorName === name);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('public cache across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ env: CACHED });
    b = await createTestApp({ env: CACHED, database: a.database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('an admin change on instance A is served by instance B within one second', async () => {
    await crossInstanceChange(a, b);
  });

  it('a post published on A is on B within one second', async () => {
    const admin = await adminOf(a);
    const slug = `across-${Date.now().toString(36)}`;
    expect((await b.app.inject({ url: `/api/blog/${slug}` })).statusCode).toBe(404);
    const created = await admin.post('/api/admin/posts', {
      title: 'Across Instances',
      slug,
      excerpt: 'Seen everywhere.',
      content: '<p>Everywhere.</p>',
      isPublished: true,
    });
    expect(created.statusCode).toBe(201);
    await expectWithinOneSecond(async () => (await b.app.inject({ url: `/api/blog/${slug}` })).statusCode === 200);
  });
});


describe.skipIf(!process.env.TEST_DATABASE_URL || !(await redisAvailable()))('public cache across instances (Redis pub/sub)', () => {
  it('an admin change on instance A is served by instance B within one second', async () => {
    const database = await createTestDatabase();
    const redisA = new Redis(redisUrl);
    const redisB = new Redis(redisUrl);
    const a = await createTestApp({ env: CACHED, database, redis: redisA });
    const b = await createTestApp({ env: CACHED, database, redis: redisB });
    try {
      await crossInstanceChange(a, b);
    } finally {
      await b.close();
      await a.close();
      redisA.disconnect();
      redisB.disconnect();
      await database.drop();
    }
  });
});
