import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { cursorParam } from '@shared/schemas/pages';
import { createTestApp, type TestApp } from '../../test/helpers';
import { insertBook } from './test-fixtures';
import { listOrders, type OrderFilter, type SearchWindow } from './orders-service';

/**
 * Decision 0105: a search that matches a large share of the orders is answered from the newest orders first.
 * Whatever the window, every page, cursor and count must be the one the whole set of matches gives.
 */
describe('a broad order search read from the newest orders first', () => {
  let t: TestApp;
  const WHOLE_SET: SearchWindow = { count: 0, page: 0, dense: Infinity };
  // Small enough that a domain matching two orders in three is broad, and that deep pages overflow it.
  const SMALL: SearchWindow = { count: 1_500, page: 200, dense: Infinity };
  // Any match among the newest orders short of broad walks the orders newest first instead of building the set.
  const WALKED: SearchWindow = { count: 1_500, page: 200, dense: 1 };

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    const bookId = (await insertBook(t, { title: 'What We Owe the Dead' })).id;
    const db = t.database.db;
    // 300 readers, two in three at example.org; 2,400 orders over them, several sharing each instant.
    await db.execute(sql`
      insert into users (username, email, password_hash, display_name)
      select 'reader' || n, 'reader' || n || case when n % 3 = 0 then '@mail.test' else '@example.org' end, 'x', 'Reader ' || n
      from generate_series(1, 300) n`);
    await db.execute(sql`
      insert into purchases (user_id, book_id, format, price, order_reference, purchase_date, status)
      select u.id, ${bookId}, case when n % 4 = 0 then 'audiobook' else 'ebook' end, 999, 'WWD-' || lpad(n::text, 6, '0'),
        timestamptz '2026-01-01' + (n / 3) * interval '1 minute', case when n % 7 = 0 then 'refunded' else 'completed' end
      from generate_series(1, 2400) n join users u on u.username = 'reader' || (1 + n % 300)`);
  });
  afterAll(async () => t.close());

  const both = async (filter: Omit<OrderFilter, 'page'> & { page?: number }) => {
    const full = { page: 1, ...filter };
    const expected = await listOrders(t.database.db, full, WHOLE_SET);
    expect(await listOrders(t.database.db, full, SMALL)).toEqual(expected);
    expect(await listOrders(t.database.db, full, WALKED)).toEqual(expected);
    return expected;
  };

  it('gives the same capped count and the same pages, cursor after cursor, as the whole set', async () => {
    const first = await both({ q: 'example.org' });
    expect(first).toMatchObject({ total: 1000, totalCapped: true });
    expect(first.items).toHaveLength(50);
    expect(first.items.every((o) => o.buyer.email.endsWith('@example.org'))).toBe(true);
    let page = first;
    let pages = 1;
    const seen = new Set(first.items.map((o) => o.id));
    while (page.nextCursor) {
      page = await both({ q: 'example.org', after: cursorParam().parse(page.nextCursor) });
      for (const o of page.items) seen.add(o.id);
      pages += 1;
    }
    expect(seen.size).toBe(1600);
    expect(pages).toBe(32);
  });

  it('agrees on numbered pages, inside and past the window, and with other filters', async () => {
    for (const p of [1, 2, 3, 4, 5, 32, 33]) await both({ q: 'example.org', page: p });
    await both({ q: 'example.org', format: 'audiobook' });
    await both({ q: 'example.org', status: 'refunded' });
    await both({ q: 'EXAMPLE.ORG' });
  });

  it('agrees when a search is common among the newest orders without being broad: pages, cursors and filters', async () => {
    // reader1, reader10-19 and reader100-199: 111 of the 300 readers, about a third of the orders.
    let page = await both({ q: 'reader1' });
    expect(page).toMatchObject({ total: 888, totalCapped: false });
    const seen = new Set(page.items.map((o) => o.id));
    while (page.nextCursor) {
      page = await both({ q: 'reader1', after: cursorParam().parse(page.nextCursor) });
      for (const o of page.items) seen.add(o.id);
    }
    expect(seen.size).toBe(888);
    for (const p of [1, 7, 17, 18]) await both({ q: 'reader1', page: p });
    await both({ q: 'reader1', format: 'audiobook' });
    await both({ q: 'Reader 1', status: 'refunded' });
    await both({ q: 'wwd-0001' });
  });

  it('answers a narrow search, an order reference and a miss from the whole set, as before', async () => {
    expect((await both({ q: 'reader7@' })).total).toBe(8);
    expect((await both({ q: 'wwd-00012' })).total).toBe(10);
    expect(await both({ q: 'nobody-here' })).toMatchObject({ total: 0, totalCapped: false, items: [], nextCursor: null });
  });
});
