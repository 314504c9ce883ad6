import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { encodeCursor } from '@shared/schemas/pages';
import type { TestAgent, TestApp } from '../../test/helpers';
import { unseededAppWithAdmin } from './test-fixtures';

type Page = { items: Array<{ id: number }>; nextCursor: string | null; unread?: number };

/** Decision 0071: the inbox, the posts and the discount codes in keyset pages. */
describe('admin messages, posts and codes in keyset pages', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
    // 95 of each; ten share each instant (or code prefix), so only the id orders them within it. Every third message is read.
    await t.database.db.execute(sql`
      insert into contact_messages (name, email, subject, message, created_at, read_at)
      select 'Reader ' || g, 'reader' || g || '@example.com', 'Other', 'Message ' || g,
             timestamptz '2026-06-01 09:00:00.123456+00' + (g / 10) * interval '1 minute',
             case when g % 3 = 0 then timestamptz '2026-07-01 00:00:00+00' end
      from generate_series(1, 95) g`);
    await t.database.db.execute(sql`
      insert into blog_posts (title, slug, excerpt, content, published_at, is_published)
      select 'Post ' || g, 'post-' || g, 'Excerpt', '<p>Body</p>', timestamptz '2026-02-01 08:00:00.5+00' + (g / 10) * interval '1 day', g % 4 <> 0
      from generate_series(1, 95) g`);
    await t.database.db.execute(sql`
      insert into discount_codes (code, percent_off) select 'CODE' || lpad(g::text, 3, '0'), 10 from generate_series(1, 95) g`);
  });
  afterAll(async () => t.close());

  const pageAt = async (url: string): Promise<Page> => {
    const res = await agent.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const walk = async (path: string, query: string) => {
    const ids: number[] = [];
    let pages = 0;
    let page = await pageAt(`${path}?${query}`);
    for (;;) {
      pages += 1;
      ids.push(...page.items.map((r) => r.id));
      if (!page.nextCursor) return { ids, pages, last: page };
      page = await pageAt(`${path}?${query}&after=${page.nextCursor}`);
    }
  };
  const idsInOrder = async (statement: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(statement)) as unknown as { rows: Array<{ id: number }> }).rows.map((r) => r.id);

  it('reaches the last page of each list with every row once, in the list order', async () => {
    const messages = await walk('/api/admin/messages', 'limit=20');
    expect(messages.pages).toBe(5);
    expect(messages.last.items).toHaveLength(15);
    expect(messages.last.unread).toBe(64);
    expect(messages.ids).toEqual(await idsInOrder(sql`select id from contact_messages order by created_at desc, id desc`));

    const unread = await walk('/api/admin/messages', 'filter=unread&limit=20');
    expect(unread.ids).toEqual(await idsInOrder(sql`select id from contact_messages where read_at is null order by created_at desc, id desc`));
    expect(unread.ids).toHaveLength(64);

    const posts = await walk('/api/admin/posts', 'limit=30');
    expect(posts.pages).toBe(4);
    expect(posts.ids).toEqual(await idsInOrder(sql`select id from blog_posts order by published_at desc, id desc`));

    const codes = await walk('/api/admin/discounts', 'limit=40');
    expect(codes.pages).toBe(3);
    expect(codes.ids).toEqual(await idsInOrder(sql`select id from discount_codes order by code, id`));
    expect((codes.last.items.at(-1) as unknown as { code: string }).code).toBe('CODE095');
  });

  it('keeps its place when rows arrive between two pages', async () => {
    const firstMessages = await pageAt('/api/admin/messages?limit=10');
    const firstPosts = await pageAt('/api/admin/posts?limit=10');
    const firstCodes = await pageAt('/api/admin/discounts?limit=10');
    // Newer messages and posts go before the first page; a code that sorts before the cursor, and one after.
    await t.database.db.execute(sql`insert into contact_messages (name, email, subject, message) values ('Late', 'late@example.com', 'Other', 'Late')`);
    await t.database.db.execute(sql`insert into blog_posts (title, slug, excerpt, content) values ('Late post', 'late-post', 'x', '<p>x</p>')`);
    await t.database.db.execute(sql`insert into discount_codes (code, percent_off) values ('AAA-EARLY', 5), ('CODE0105', 5)`);

    const nextMessages = await pageAt(`/api/admin/messages?limit=10&after=${firstMessages.nextCursor}`);
    expect(nextMessages.items[0].id).toBe(firstMessages.items[9].id - 1);
    const nextPosts = await pageAt(`/api/admin/posts?limit=10&after=${firstPosts.nextCursor}`);
    expect(nextPosts.items[0].id).toBe(firstPosts.items[9].id - 1);
    const nextCodes = await pageAt(`/api/admin/discounts?limit=10&after=${firstCodes.nextCursor}`);
    const codes = nextCodes.items.map((c) => (c as unknown as { code: string }).code);
    // The first page held CODE001-CODE010: the new code after them comes next, the earlier one never.
    expect(codes).toEqual(['CODE0105', ...Array.from({ length: 9 }, (_, i) => `CODE0${11 + i}`)]);
  });

  it("refuses a cursor it did not make, or another list's, with 400", async () => {
    const timeCursor = (await pageAt('/api/admin/messages?limit=1')).nextCursor!;
    const codeCursor = (await pageAt('/api/admin/discounts?limit=1')).nextCursor!;
    for (const url of [
      '/api/admin/messages?after=bogus',
      '/api/admin/posts?after=W10',
      '/api/admin/discounts?after=eyJ4Ijox',
      `/api/admin/messages?after=${codeCursor}`,
      `/api/admin/posts?after=${codeCursor}`,
      `/api/admin/discounts?after=${timeCursor}`,
      `/api/admin/posts?after=${encodeCursor({ key: 'not a time', id: 1 })}`,
      '/api/admin/discounts?limit=201',
    ]) {
      const res = await agent.get(url);
      expect(res.statusCode, url).toBe(400);
    }
    expect((await agent.get(`/api/admin/messages?after=${codeCursor}`)).json().message).toBe('This page link is not valid. Start again from the first page.');
  });
});
