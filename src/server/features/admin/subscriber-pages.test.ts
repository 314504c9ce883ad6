import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestAgent, TestApp } from '../../test/helpers';
import { unseededAppWithAdmin } from './test-fixtures';

type Page = { items: Array<{ id: number; email: string }>; nextCursor: string | null; total: number; active: number; unconfirmed: number };

/** Decision 0071: the subscriber list in keyset pages, searched on the server. */
describe('admin subscribers in keyset pages', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
    // 250 sign-ups, 25 to each instant; every 10th unconfirmed (unless gone) and every 25th gone.
    await t.database.db.execute(sql`
      insert into newsletter_subscribers (email, name, subscribed_at, state, source, unsubscribed_at)
      select 'fan' || g || '@example.com', 'Fan ' || g, timestamptz '2026-03-01 00:00:00.5+00' + (g / 25) * interval '1 minute',
             case when g % 25 = 0 then 'unsubscribed' when g % 10 = 0 then 'unconfirmed' else 'confirmed' end, 'home',
             case when g % 25 = 0 then timestamptz '2026-04-01 00:00:00+00' end
      from generate_series(1, 250) g`);
  });
  afterAll(async () => t.close());

  const pageAt = async (query: string): Promise<Page> => {
    const res = await agent.get(`/api/admin/subscribers?${query}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const walk = async (query: string) => {
    const ids: number[] = [];
    let page = await pageAt(query);
    for (;;) {
      ids.push(...page.items.map((s) => s.id));
      if (!page.nextCursor) return { ids, last: page };
      page = await pageAt(`${query}&after=${page.nextCursor}`);
    }
  };

  it('reaches the last page, every subscriber once, newest first, with the whole list counted', async () => {
    const first = await pageAt('limit=40');
    expect(first.items).toHaveLength(40);
    expect(first).toMatchObject({ total: 250, active: 240, unconfirmed: 20 });
    const { ids, last } = await walk('limit=40');
    expect(last.items).toHaveLength(10);
    expect(ids).toHaveLength(250);
    const expected = await t.database.db.execute(sql`select id from newsletter_subscribers order by subscribed_at desc, id desc`);
    expect(ids).toEqual((expected as unknown as { rows: Array<{ id: number }> }).rows.map((r) => r.id));
  });

  it('keeps its place when people sign up between two pages', async () => {
    const first = await pageAt('limit=30');
    await t.database.db.execute(sql`insert into newsletter_subscribers (email, state, source) select 'late' || g || '@example.com', 'confirmed', 'footer' from generate_series(1, 5) g`);
    const second = await pageAt(`limit=30&after=${first.nextCursor}`);
    const seen = new Set(first.items.map((s) => s.id));
    expect(second.items.some((s) => seen.has(s.id))).toBe(false);
    expect(second.items[0].id).toBe(first.items[29].id - 1);
  });

  it('searches any part of an address or name, in pages too', async () => {
    const { ids } = await walk('q=FAN 1&limit=7');
    // Fan 1, Fan 10-19, Fan 100-199: 111 names.
    expect(ids).toHaveLength(111);
    expect((await pageAt('q=late3@')).items.map((s) => s.email)).toEqual(['late3@example.com']);
    expect((await pageAt('q=%25')).items).toEqual([]);
  });

  it('refuses a cursor it did not make and a page too large', async () => {
    expect((await agent.get('/api/admin/subscribers?after=bogus')).statusCode).toBe(400);
    expect((await agent.get('/api/admin/subscribers?limit=201')).statusCode).toBe(400);
  });
});

describe('admin accounts in keyset pages', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
    // 60 readers who signed up in the same instant: only the id orders them.
    await t.database.db.execute(sql`
      insert into users (username, email, password_hash, created_at)
      select 'member' || g, 'member' || g || '@club.example', 'x', timestamptz '2026-05-01 12:00:00.654321+00'
      from generate_series(1, 60) g`);
  });
  afterAll(async () => t.close());

  it('reaches the last page with every account once, and searches names and addresses', async () => {
    const ids: number[] = [];
    let page = (await agent.get('/api/admin/users?limit=25')).json() as { items: Array<{ id: number; purchases: number }>; nextCursor: string | null };
    for (;;) {
      ids.push(...page.items.map((u) => u.id));
      if (!page.nextCursor) break;
      page = (await agent.get(`/api/admin/users?limit=25&after=${page.nextCursor}`)).json();
    }
    expect(ids).toHaveLength(61);
    expect(new Set(ids).size).toBe(61);
    expect(page.items.at(-1)!.purchases).toBe(0);
    const found = (await agent.get('/api/admin/users?q=CLUB.example&limit=200')).json().items;
    expect(found).toHaveLength(60);
    expect((await agent.get('/api/admin/users?q=member5')).json().items.map((u: { email: string }) => u.email).sort()).toEqual([
      'member5@club.example',
      'member50@club.example',
      'member51@club.example',
      'member52@club.example',
      'member53@club.example',
      'member54@club.example',
      'member55@club.example',
      'member56@club.example',
      'member57@club.example',
      'member58@club.example',
      'member59@club.example',
    ].sort());
    expect((await agent.get('/api/admin/users?after=nope')).statusCode).toBe(400);
  });
});
