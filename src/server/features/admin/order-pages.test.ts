import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { purchases } from '../../db/schema';
import { createTestApp, createUser, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent, insertBook } from './test-fixtures';

/** Decision 0071: the order list in keyset pages, and the search through its indexes. */
describe('admin orders in keyset pages', () => {
  let t: TestApp;
  let agent: TestAgent;
  let bookId: number;
  let readerId: number;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    ({ agent } = await adminAgent(t));
    bookId = (await insertBook(t, { title: 'What We Owe the Dead' })).id;
    readerId = (await createUser(t.database, { username: 'maud-ashby', email: 'maud@example.org' })).id;
    // 130 orders; ten share each instant, so only the id can order them within it.
    await t.database.db.insert(purchases).values(
      Array.from({ length: 130 }, (_, i) => ({
        userId: readerId,
        bookId,
        format: 'ebook',
        price: 999,
        orderReference: `WWD-${String(i).padStart(4, '0')}AB`,
        purchaseDate: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 10) * 60_000),
      })),
    );
  });
  afterAll(async () => t.close());

  const pageAt = async (query: string) => {
    const res = await agent.get(`/api/admin/orders?${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as {
      items: Array<{ id: number; orderReference: string; purchaseDate: string }>;
      total: number;
      totalCapped: boolean;
      nextCursor: string | null;
    };
  };

  it('pages from first to last with the cursor: every order once, newest first, and no cursor after the last', async () => {
    const seen: number[] = [];
    let page = await pageAt('');
    for (;;) {
      seen.push(...page.items.map((o) => o.id));
      if (!page.nextCursor) break;
      page = await pageAt(`after=${page.nextCursor}`);
    }
    expect(page.items).toHaveLength(30);
    const all = await t.database.db.select({ id: purchases.id }).from(purchases).orderBy(sql`purchase_date desc, id desc`);
    expect(seen).toEqual(all.map((r) => r.id));
    // The numbered pages still answer, and agree with the cursor's.
    expect((await pageAt('page=3')).items.map((o) => o.id)).toEqual(seen.slice(100, 130));
  });

  it('keeps its place when orders arrive between two pages', async () => {
    const first = await pageAt('');
    await t.database.db.insert(purchases).values(
      Array.from({ length: 7 }, (_, i) => ({
        userId: readerId,
        bookId,
        format: 'ebook',
        price: 999,
        orderReference: `WWD-NEW${i}`,
        purchaseDate: new Date(Date.UTC(2027, 0, 1)),
      })),
    );
    const second = await pageAt(`after=${first.nextCursor}`);
    const byOffset = await pageAt('page=2');
    expect(second.items[0].id).not.toBe(byOffset.items[0].id);
    const firstIds = new Set(first.items.map((o) => o.id));
    expect(second.items.some((o) => firstIds.has(o.id))).toBe(false);
    expect(new Date(second.items[0].purchaseDate).getTime()).toBeLessThanOrEqual(new Date(first.items.at(-1)!.purchaseDate).getTime());
    expect(second.total).toBe(137);
  });

  it('keeps the cursor exact to the microsecond the database stores', async () => {
    await t.database.db.execute(sql`update purchases set purchase_date = timestamptz '2025-06-01 10:00:00.123456+00' where order_reference like 'WWD-00%'`);
    const ids: number[] = [];
    let page = await pageAt('q=WWD-00');
    for (;;) {
      ids.push(...page.items.map((o) => o.id));
      if (!page.nextCursor) break;
      page = await pageAt(`q=WWD-00&after=${page.nextCursor}`);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(100);
  });

  it('finds an order by the start of its reference, typed in any case, and a buyer by any part of a name or address', async () => {
    const byRef = await pageAt('q=wwd-0042');
    expect(byRef.items.map((o) => o.orderReference)).toEqual(['WWD-0042AB']);
    expect((await pageAt('q=0042AB')).total).toBe(0);
    expect((await pageAt('q=SHBY')).total).toBe(137);
    expect((await pageAt('q=example.org')).total).toBe(137);
    expect((await pageAt('q=%25')).total).toBe(0);
  });

  it('counts a search to its end up to 1,000 matches, says "more than" past that, and still reaches the last page', async () => {
    expect(await pageAt('q=SHBY')).toMatchObject({ total: 137, totalCapped: false });
    const other = await createUser(t.database, { username: 'quill-many', email: 'quill@example.net' });
    await t.database.db.execute(sql`insert into purchases (user_id, book_id, format, price, order_reference, purchase_date)
      select ${other.id}, ${bookId}, 'ebook', 999, 'QM-' || lpad(g::text, 5, '0'), timestamptz '2025-06-01 00:00:00+00' + g * interval '1 minute'
      from generate_series(1, 1060) g`);
    const first = await pageAt('q=quill');
    expect(first).toMatchObject({ total: 1000, totalCapped: true });
    // The whole list is past the cap too; a narrower search is exact again.
    expect(await pageAt('')).toMatchObject({ total: 1000, totalCapped: true });
    expect(await pageAt('q=maud')).toMatchObject({ total: 137, totalCapped: false });
    let page = first;
    let pages = 1;
    let seen = page.items.length;
    while (page.nextCursor) {
      page = await pageAt(`q=quill&after=${page.nextCursor}`);
      pages += 1;
      seen += page.items.length;
    }
    expect(seen).toBe(1060);
    expect(pages).toBe(22);
    expect(page.items.at(-1)!.orderReference).toBe('QM-00001');
  });

  it('refuses a cursor it did not make, and changes nothing', async () => {
    for (const bad of ['not-a-cursor', 'W10', 'eyJ4Ijox', '%3Cscript%3E']) {
      const res = await agent.get(`/api/admin/orders?after=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/page link is not valid/);
    }
  });

  it('has the migration indexes for the searches and pages', async () => {
    // Both drivers answer raw SQL with { rows }.
    const rows = (await t.database.db.execute(sql`select indexname from pg_indexes where schemaname = 'public'`)) as unknown as {
      rows: Array<{ indexname: string }>;
    };
    const names = new Set(rows.rows.map((r) => r.indexname));
    for (const name of [
      'purchases_date_id_idx',
      'purchases_order_reference_prefix_idx',
      'purchases_sales_idx',
      'users_username_trgm_idx',
      'users_email_trgm_idx',
      'purchase_customer_info_name_trgm_idx',
      'newsletter_subscribed_idx',
      'newsletter_email_trgm_idx',
      'contact_messages_unread_idx',
      'blog_posts_admin_order_idx',
      'discount_codes_code_idx',
      'users_created_idx',
    ]) {
      expect(names, name).toContain(name);
    }
  });
});
