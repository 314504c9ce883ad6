/**
 * Rendered pages are answered like the public reads: a strong ETag per encoding, 304 to a matching
 * If-None-Match, and a 200 page repeated by the front door until the public cache is cleared.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// The production server loads the build of this same entry (dist/server-render); the test renders from source.
// eslint-disable-next-line no-restricted-imports
import { renderApp } from '@client/entry-server';
import { createTestApp, createUser, signedInAgent, type TestApp } from '../../test/helpers';
import { countingRenderer } from '../../test/counting-renderer';
import { acceptedEncodings, cachedAnswer } from './cached-answer';

describe('rendered pages over real HTTP', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ renderApp, env: { SITE_CACHE_MS: '60000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => t.close());

  it('GET / carries an ETag for its encoding, answers 304 to it, and is repeated by the front door', async () => {
    const first = await fetch(`${base}/`, { headers: { 'accept-encoding': 'br' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-encoding')).toBe('br');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const html = await first.text();
    expect(html).toContain('<div id="root">');
    expect(t.app.frontDoor.remembered.has('/')).toBe(true);

    const again = await fetch(`${base}/`, { headers: { 'accept-encoding': 'br' } });
    expect(await again.text()).toBe(html);
    for (const name of ['etag', 'cache-control', 'content-type', 'content-security-policy', 'vary']) {
      expect(again.headers.get(name)).toBe(first.headers.get(name));
    }
    const plain = await fetch(`${base}/`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('etag')).toBe(etag.replace('-br"', '"'));

    const revalidated = await fetch(`${base}/`, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('a signed-in reader gets the same page (their parts fill in in the browser)', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const anonymous = await t.app.inject({ url: '/blog' });
    const signedIn = await agent.get('/blog', { auth: 'cookie' });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.body).toBe(anonymous.body);
    expect(signedIn.headers.etag).toBe(anonymous.headers.etag);
  });

  it('a page answered 404 is not repeated by the front door', async () => {
    const res = await fetch(`${base}/no-such-page`);
    expect(res.status).toBe(404);
    expect(t.app.frontDoor.remembered.has('/no-such-page')).toBe(false);
    const missingPost = await fetch(`${base}/blog/no-such-post`);
    expect(missingPost.status).toBe(404);
    expect(t.app.frontDoor.remembered.has('/blog/no-such-post')).toBe(false);
  });
});

describe('the safety net refilling a page', () => {
  let t: TestApp;
  const renderer = countingRenderer();
  const { drawn } = renderer;
  beforeAll(async () => {
    // A short safety net, so a refill happens within the test; each drawing is counted.
    t = await createTestApp({ renderApp: renderer.renderApp, env: { SITE_CACHE_MS: '50' } });
  });
  afterAll(async () => t.close());

  /** Reads `url` after the safety net has run out, then waits for the refill made in the background. */
  async function readAfterSafetyNet(url: string) {
    t.clock.advance(50);
    const res = await t.app.inject({ url });
    await vi.waitFor(() => expect(t.app.deps.cache.refreshing).toBe(0));
    return res;
  }

  it('answers the page drawn before, without drawing it again, when nothing it shows has changed', async () => {
    const first = await t.app.inject({ url: '/' });
    expect(first.statusCode).toBe(200);
    expect(drawn.filter((p) => p === '/')).toHaveLength(1);
    await readAfterSafetyNet('/');
    await readAfterSafetyNet('/');
    const later = await t.app.inject({ url: '/' });
    expect(later.body).toBe(first.body);
    expect(later.headers.etag).toBe(first.headers.etag);
    expect(drawn.filter((p) => p === '/')).toHaveLength(1);
  });

  it('draws the page again when what it shows has changed', async () => {
    const admin = await createUser(t.database, { role: 'admin' });
    const agent = await signedInAgent(t.app, admin.id);
    const before = await t.app.inject({ url: '/' });
    const count = drawn.filter((p) => p === '/').length;
    const current = (await agent.get('/api/admin/settings')).json();
    const res = await agent.put('/api/admin/settings', { ...current, authorName: 'Callum A. Reyes' });
    expect(res.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/' });
    expect(after.body).not.toBe(before.body);
    expect(after.body).toContain('About Callum A. Reyes');
    expect(drawn.filter((p) => p === '/')).toHaveLength(count + 1);
  });
});

describe('Accept-Encoding', () => {
  it.each([
    ['br, gzip', { br: true, gzip: true }],
    ['gzip', { br: false, gzip: true }],
    ['br;q=0, *', { br: false, gzip: true }],
    ['*;q=0, gzip', { br: false, gzip: true }],
    ['identity', { br: false, gzip: false }],
    ['BR;q=0.5', { br: true, gzip: false }],
    [undefined, { br: false, gzip: false }],
    [['gzip', 'br'], { br: true, gzip: true }],
  ])('%j allows %j', (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });
});

describe('answers made again', () => {
  it('the same bytes reuse the answer made before (no second compression); other bytes do not', async () => {
    const page = `<p>${'A quiet inheritance. '.repeat(200)}</p>`;
    const first = await cachedAnswer(page, 'text/html; charset=utf-8');
    expect(first.br).not.toBeNull();
    expect(await cachedAnswer(page, 'text/html; charset=utf-8')).toBe(first);
    expect(await cachedAnswer(page, 'text/plain')).not.toBe(first);
    const changed = await cachedAnswer(page.replace('quiet', 'loud'), 'text/html; charset=utf-8');
    expect(changed).not.toBe(first);
    expect(changed.etag).not.toBe(first.etag);
  });
});
