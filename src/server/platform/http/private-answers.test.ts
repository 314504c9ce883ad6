import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';

type Operation = { method: string; path: string };

/** Every operation of the OpenAPI document, with its path parameters filled with values that exist. */
async function operations(t: TestApp, values: Record<string, string>): Promise<Operation[]> {
  const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  const list: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1');
    for (const method of Object.keys(methods)) list.push({ method: method.toUpperCase(), path });
  }
  return list;
}

const isPrivate = (cacheControl: unknown) => /\bprivate\b/.test(String(cacheControl)) && /\bno-store\b/.test(String(cacheControl));

describe('Cache-Control on authenticated and token-bearing answers', () => {
  let t: TestApp;
  let values: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    const featured = (await t.app.inject({ url: '/api/books/featured' })).json() as { id: number };
    const [post] = (await t.app.inject({ url: '/api/blog' })).json() as Array<{ slug: string }>;
    values = { id: String(featured.id), bookId: String(featured.id), slug: post.slug, format: 'ebook', sessionId: 'cs_missing', token: 'not-a-token' };
  });
  afterAll(async () => t.close());

  it.each(['admin', 'user'] as const)('every operation answers a signed-in %s privately, unless the answer is the same for everyone', async (role) => {
    const user = await createUser(t.database, { role });
    const agent = await signedInAgent(t.app, user.id);
    const anonymous = new TestAgent(t.app);
    const ops = await operations(t, { ...values, userId: String(user.id) });
    expect(ops.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const { method, path } of ops) {
      // Log-out last: it ends the session the rest of the walk uses.
      if (path === '/api/users/logout') continue;
      for (const auth of ['both', 'cookie', 'bearer'] as const) {
        const res = await agent.request({ method: method as 'GET', url: path, auth, payload: method === 'GET' || method === 'HEAD' ? undefined : {} });
        const cacheControl = res.headers['cache-control'];
        if (isPrivate(cacheControl)) continue;
        // Otherwise the answer must hold nothing of the caller's: exactly what an anonymous visitor gets
        // (public reads, health checks, a public 404).
        if (method === 'GET') {
          const other = await anonymous.get(path);
          if (other.body === res.body && other.statusCode === res.statusCode) continue;
        }
        wrong.push(`${method} ${path} (${auth}) ${res.statusCode}: ${String(cacheControl)}`);
      }
    }
    const out = await agent.post('/api/users/logout', {});
    if (!isPrivate(out.headers['cache-control'])) wrong.push(`POST /api/users/logout: ${String(out.headers['cache-control'])}`);
    expect(wrong).toEqual([]);
  });

  it('the sign-in and registration answers that carry the bearer token are private', async () => {
    const reader = await createUser(t.database);
    const login = await new TestAgent(t.app).post('/api/users/login', { username: reader.username, password: reader.password });
    expect(login.statusCode).toBe(200);
    expect(login.json().token).toBeTruthy();
    expect(login.headers['cache-control']).toBe('private, no-store');
    const register = await new TestAgent(t.app).post('/api/users/register', { email: 'nell@example.com', username: 'nell', displayName: 'Nell', password: 'Quiet-River-42!' });
    expect(register.statusCode).toBe(201);
    expect(register.headers['cache-control']).toBe('private, no-store');
  });

  it('public reads keep their shared cache policy and ETag for signed-in readers too', async () => {
    const reader = await createUser(t.database);
    const agent = await signedInAgent(t.app, reader.id);
    for (const path of ['/api/books', '/api/site', '/api/blog', '/api/books/featured']) {
      const signedIn = await agent.get(path);
      const anonymous = await t.app.inject({ url: path });
      expect(signedIn.headers['cache-control'], path).toBe(anonymous.headers['cache-control']);
      expect(String(signedIn.headers['cache-control']), path).toMatch(/^public/);
      expect(signedIn.headers.etag, path).toBe(anonymous.headers.etag);
    }
    // A signed download link is a credential: its answer is never stored, even without a session.
    const link = await t.app.inject({ url: '/files/download/not-a-token' });
    expect(link.headers['cache-control']).toBe('private, no-store');
  });
});
