import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestAgent, type TestApp } from '../test/helpers';
import { featuredBook } from '../db/seed/content';

describe('server platform', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('reports liveness and readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ message: 'Route GET /api/nope not found', code: 'NOT_FOUND' });
  });

  it('serves the app for client routes and unknown pages (404 status for the latter)', async () => {
    const home = await t.app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/text\/html/);
    expect(home.body).toContain('<div id="root">');
    const profile = await t.app.inject({ url: '/profile' });
    expect(profile.statusCode).toBe(200);
    const nope = await t.app.inject({ url: '/nope' });
    expect(nope.statusCode).toBe(404);
    expect(nope.body).toContain('<div id="root">');
  });

  it('caches hashed assets for a year and the HTML not at all', async () => {
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ url: '/' })).headers['cache-control']).toBe('no-cache');
  });

  it('sends security headers with a strict CSP and a request id', async () => {
    const res = await t.app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The reading room frames book pages as blob: URLs; scripts must never be allowed from blob:.
    expect(csp).toContain('frame-src blob: https://www.youtube-nocookie.com');
    expect(csp).not.toMatch(/script-src[^;]*blob:/);
    expect(csp).not.toMatch(/default-src[^;]*blob:/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });

  it('describes the API in an OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/books', '/api/books/featured', '/api/books/{id}', '/api/csrf-token']));
  });

  it('issues CSRF tokens bound to the visitor cookie', async () => {
    const agent = new TestAgent(t.app);
    const token = await agent.fetchCsrf();
    expect(token.length).toBeGreaterThan(20);
    expect(agent.cookies.size).toBe(1);
    const again = await agent.fetchCsrf();
    expect(again).toBe(token);
    const other = new TestAgent(t.app);
    expect(await other.fetchCsrf()).not.toBe(token);
  });

  it('serves the featured title from the database', async () => {
    const res = await t.app.inject({ url: '/api/books/featured' });
    expect(res.json().title).toBe(featuredBook.title);
  });
});
