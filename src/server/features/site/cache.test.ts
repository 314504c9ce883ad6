import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signedInAgent, type TestApp } from '../../test/helpers';

describe('site content cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_CACHE_MS: '60000' } });
  });
  afterAll(async () => t.close());

  it('serves repeated reads from memory and shows an admin change at once', async () => {
    const first = (await t.app.inject({ url: '/api/site' })).json();
    // A change made behind the app's back (as another instance would) is not read again within the ttl...
    await t.database.db.execute(sql`update site_settings set value = jsonb_set(value, '{authorName}', '"Someone Else"') where key = 'site.content'`);
    expect((await t.app.inject({ url: '/api/site' })).json().content.authorName).toBe(first.content.authorName);

    // ...but an admin change through this instance clears the cache.
    const admin = await createUser(t.database, { role: 'admin' });
    const agent = await signedInAgent(t.app, admin.id);
    const current = (await agent.get('/api/admin/settings')).json();
    const res = await agent.put('/api/admin/settings', { ...current, authorName: 'C. Reyes' });
    expect(res.statusCode).toBe(200);
    const after = (await t.app.inject({ url: '/api/site' })).json();
    expect(after.content.authorName).toBe('C. Reyes');
    const html = (await t.app.inject({ url: '/' })).body;
    expect(html).toContain('C. Reyes');
  });
});
