import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createTestApp, createUser, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent, insertBook } from './test-fixtures';
import { EXPORT_BATCH } from './csv-export';

const records = (body: string) => body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');

/** Decision 0071: the order and reader exports are written batch by batch, like the subscribers'. */
describe('order and reader CSV exports in batches', () => {
  let t: TestApp;
  let agent: TestAgent;
  const orders = EXPORT_BATCH * 2 + 300;
  const readers = EXPORT_BATCH + 200;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    ({ agent } = await adminAgent(t));
    const book = await insertBook(t, { title: 'What We Owe the Dead, "Deluxe"' });
    const buyer = await createUser(t.database, { username: 'maud-ashby', email: 'maud@example.org', displayName: 'Maud' });
    // Fifty orders to each instant, so batches end inside a run of equal times; every 9th buyer name needs escaping.
    await t.database.db.execute(sql`
      insert into purchases (user_id, book_id, format, price, order_reference, purchase_date)
      select ${buyer.id}, ${book.id}, 'ebook', 999, 'WWD-' || lpad(g::text, 5, '0'),
             timestamptz '2026-01-01 00:00:00.000001+00' + (g / 50) * interval '1 second'
      from generate_series(1, ${orders}) g`);
    await t.database.db.execute(sql`
      insert into purchase_customer_info (purchase_id, customer_name, customer_email)
      select id, case when id % 9 = 0 then '=HYPERLINK("x"), ' || chr(10) || 'Maud' else 'Maud Ashby' end, 'maud@example.org'
      from purchases`);
    // Readers, twenty to each instant; every 7th display name needs escaping.
    await t.database.db.execute(sql`
      insert into users (username, email, password_hash, display_name, created_at)
      select 'member' || g, 'member' || g || '@club.example', 'x',
             case when g % 7 = 0 then '+1 "quoted"' else 'Member ' || g end,
             timestamptz '2026-05-01 12:00:00.654321+00' + (g / 20) * interval '1 minute'
      from generate_series(1, ${readers}) g`);
  });
  afterAll(async () => t.close());

  const audited = async (action: string) =>
    (await t.database.db.select().from(auditLog).where(eq(auditLog.action, action))).map((e) => e.details);

  it('writes every order once, oldest first, escaped, and audits the row count', async () => {
    const res = await agent.get('/api/admin/orders/export.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="thriller-circle-orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.body.startsWith(
      '\uFEFF"order_reference","purchase_date","buyer_username","buyer_email","customer_name","book","format","kind","status","price","refunded","currency","shipped_at"\r\n',
    )).toBe(true);
    const lines = records(res.body).slice(1);
    expect(lines).toHaveLength(orders);
    const refs = lines.map((line) => /^"([^"]+)"/.exec(line)![1]);
    expect(refs).toEqual(Array.from({ length: orders }, (_, i) => `WWD-${String(i + 1).padStart(5, '0')}`));
    expect(lines[0]).toBe(
      '"WWD-00001","2026-01-01T00:00:00.000Z","maud-ashby","maud@example.org","Maud Ashby","What We Owe the Dead, ""Deluxe""","ebook","paid","completed","9.99","0.00","GBP",""',
    );
    expect(lines.filter((line) => line.includes(`"'=HYPERLINK(""x""), \nMaud"`))).toHaveLength(Math.floor(orders / 9));
    expect(await audited('orders.export')).toEqual([{ rows: orders }]);
  });

  it("takes the list's search: only the orders it finds", async () => {
    const res = await agent.get('/api/admin/orders/export.csv?q=wwd-0001');
    expect(res.statusCode).toBe(200);
    const refs = records(res.body).slice(1).map((line) => /^"([^"]+)"/.exec(line)![1]);
    expect(refs).toEqual(Array.from({ length: 10 }, (_, i) => `WWD-0001${i}`));
    expect((await agent.get('/api/admin/orders/export.csv?status=lost')).statusCode).toBe(400);
  });

  // On PostgreSQL the search is written into the COPY statement as a literal (decision 0111).
  it('takes a search holding quotes and backslashes as text', async () => {
    const oddName = `O'Hara \\' or ''=' \\"`;
    await t.database.db.execute(sql`update purchase_customer_info set customer_name = ${oddName} where purchase_id = (select min(id) from purchases)`);
    const res = await agent.get(`/api/admin/orders/export.csv?q=${encodeURIComponent(oddName)}`);
    expect(res.statusCode).toBe(200);
    const lines = records(res.body).slice(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`,"${oddName.replace(/"/g, '""')}","What We Owe`);
    const none = await agent.get(`/api/admin/orders/export.csv?q=${encodeURIComponent("x' or 'a'='a")}`);
    expect(records(none.body)).toHaveLength(1);
    await t.database.db.execute(sql`update purchase_customer_info set customer_name = 'Maud Ashby' where purchase_id = (select min(id) from purchases)`);
  });

  it('writes every reader once, oldest first, escaped, and audits the row count', async () => {
    const res = await agent.get('/api/admin/users/export.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="thriller-circle-readers-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.body.startsWith('\uFEFF"username","email","display_name","role","subscribed","purchases","created_at"\r\n')).toBe(true);
    const lines = records(res.body).slice(1);
    const total = readers + 2;
    expect(lines).toHaveLength(total);
    const names = lines.map((line) => /^"([^"]+)"/.exec(line)![1]);
    expect(new Set(names).size).toBe(total);
    const members = names.filter((n) => n.startsWith('member'));
    expect(members).toEqual(Array.from({ length: readers }, (_, i) => `member${i + 1}`));
    expect(lines.find((line) => line.startsWith('"maud-ashby"'))).toMatch(new RegExp(`^"maud-ashby","maud@example.org","Maud","user","no","${orders}","\\d{4}-`));
    expect(lines[names.indexOf('member7')]).toBe(`"member7","member7@club.example","'+1 ""quoted""","user","no","0","2026-05-01T12:00:00.654Z"`);
    expect(await audited('users.export')).toEqual([{ rows: total }]);

    const searched = records((await agent.get('/api/admin/users/export.csv?q=MEMBER99')).body).slice(1);
    expect(searched.map((line) => /^"([^"]+)"/.exec(line)![1])).toEqual(['member99', ...Array.from({ length: 10 }, (_, i) => `member99${i}`)]);
  });
});
