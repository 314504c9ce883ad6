import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';

/** Every admin and dashboard route, as the OpenAPI document lists it (so a new route cannot be forgotten). */
function adminRoutes(t: TestApp): Array<{ method: string; url: string }> {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const routes: Array<{ method: string; url: string }> = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/admin') && !path.startsWith('/api/dashboard')) continue;
    for (const method of Object.keys(ops)) {
      if (method === 'head') continue;
      routes.push({
        method: method.toUpperCase(),
        url: path.replace('{id}', '1').replace('{format}', 'ebook'),
      });
    }
  }
  return routes;
}

describe('admin access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => t.close());

  it('knows every admin route', () => {
    const urls = adminRoutes(t).map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /api/dashboard/stats',
        'GET /api/dashboard/sales',
        'POST /api/admin/books',
        'PUT /api/admin/books/1',
        'PUT /api/admin/books/1/files/ebook',
        'GET /api/admin/posts',
        'POST /api/admin/posts/1/publish',
        'POST /api/admin/orders/1/reset-download',
        'POST /api/admin/orders/1/ship',
        'GET /api/admin/subscribers.csv',
        'GET /api/admin/settings',
        'PUT /api/admin/settings',
        'GET /api/admin/users',
        'GET /api/admin/messages',
        'GET /api/admin/audit',
      ]),
    );
    expect(urls.length).toBeGreaterThanOrEqual(20);
  });

  it('refuses every admin route to an anonymous caller with 401', async () => {
    const agent = new TestAgent(t.app); // holds a valid CSRF token, so only the missing session counts
    for (const route of adminRoutes(t)) {
      const res = await agent.request({ method: route.method as 'GET', url: route.url, payload: route.method === 'GET' ? undefined : {} });
      expect({ route, status: res.statusCode }).toEqual({ route, status: 401 });
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('refuses every admin route to a signed-in reader with 403', async () => {
    const reader = await createUser(t.database);
    const agent = await signedInAgent(t.app, reader.id);
    for (const route of adminRoutes(t)) {
      const res = await agent.request({ method: route.method as 'GET', url: route.url, payload: route.method === 'GET' ? undefined : {} });
      expect({ route, status: res.statusCode }).toEqual({ route, status: 403 });
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('lets an admin in', async () => {
    const admin = await createUser(t.database, { role: 'admin' });
    const agent = await signedInAgent(t.app, admin.id);
    for (const url of ['/api/dashboard/stats', '/api/admin/posts', '/api/admin/orders', '/api/admin/users', '/api/admin/settings']) {
      const res = await agent.get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
  });
});
