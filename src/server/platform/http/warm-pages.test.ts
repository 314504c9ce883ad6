import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { countingRenderer } from '../../test/counting-renderer';
import { warmPublicPages } from './warm-pages';

describe('drawing the public pages ahead of their first readers', () => {
  let t: TestApp;
  const renderer = countingRenderer();
  const { drawn } = renderer;
  beforeAll(async () => {
    t = await createTestApp({ renderApp: renderer.renderApp, env: { SITE_CACHE_MS: '60000' } });
  });
  afterAll(async () => t.close());

  it('draws the home page, the blog and each post once, and readers then get them without a drawing', async () => {
    const posts = (await t.app.inject({ url: '/api/blog' })).json<Array<{ id: string }>>();
    expect(posts.length).toBeGreaterThan(0);
    const warmed = await warmPublicPages(t.app);
    expect(warmed).toEqual(['/', '/blog', ...posts.map((p) => `/blog/${p.id}`)]);
    expect([...drawn].sort()).toEqual([...warmed].sort());

    const before = drawn.length;
    for (const url of warmed) expect((await t.app.inject({ url })).statusCode).toBe(200);
    expect(drawn.length).toBe(before);
  });

  it('does nothing when the public cache is off', async () => {
    const uncached = await createTestApp({ renderApp: countingRenderer().renderApp, env: { SITE_CACHE_MS: '0' } });
    try {
      expect(await warmPublicPages(uncached.app)).toEqual([]);
    } finally {
      await uncached.close();
    }
  });
});
