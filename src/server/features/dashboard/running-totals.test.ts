import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscribers, purchases, userActivities, users } from '../../db/schema';
import { type TestAgent, type TestApp, createUser } from '../../test/helpers';
import { buy, newReader, storeAppWithAdmin } from '../checkout/test-support';

/**
 * Decision 0104: the dashboard, the Subscribers page and the messages list read running totals kept by
 * triggers. After every kind of write that changes them, each figure must equal the figure counted from the
 * orders, readers, subscribers and messages themselves.
 */
describe('dashboard running totals (decision 0104)', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;
  beforeAll(async () => {
    ({ t, bookId, admin } = await storeAppWithAdmin());
  });
  afterAll(() => t.close());

  const rows = async <T>(query: string) => ((await t.database.db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
  const stats = async () => {
    const res = await admin.get('/api/dashboard/stats');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  /** The sales counted from the purchases as the dashboard defines them, per UTC day, book and format. */
  const countedSales = () =>
    rows<{ day: string; book_id: number; format: string; sales: number; revenue: number }>(
      `select (purchase_date at time zone 'UTC')::date::text as day, book_id, format, count(*)::int as sales, sum(price - refunded_amount)::int as revenue
         from purchases where status in ('completed', 'shipped') and kind in ('paid', 'gift') group by 1, 2, 3 order by 1, 2, 3`,
    );
  const rolledUp = () =>
    rows<{ day: string; book_id: number; format: string; sales: number; revenue: number }>(
      `select day::text as day, book_id, format, sales, revenue::int as revenue from sales_daily where sales <> 0 order by 1, 2, 3`,
    );

  async function expectSalesMatchOrders() {
    const counted = await countedSales();
    expect(await rolledUp()).toEqual(counted);
    const body = await stats();
    expect(body.salesStats.totalSales).toBe(counted.reduce((n, r) => n + r.sales, 0));
    expect(body.salesStats.totalRevenue).toBe(counted.reduce((n, r) => n + r.revenue, 0));
    const series = (await admin.get('/api/dashboard/sales?range=all')).json();
    expect(series.formats.reduce((n: number, f: { revenue: number }) => n + f.revenue, 0)).toBe(body.salesStats.totalRevenue);
    return body;
  }

  const reader = () => newReader(t);
  const purchaseOf = async (userId: number, format: string) =>
    (await t.database.db.select().from(purchases).where(eq(purchases.userId, userId))).find((p) => p.format === format)!;

  it('keeps sales and revenue equal to the orders through purchases, shipping, partial and whole refunds', async () => {
    const before = (await expectSalesMatchOrders()).salesStats;

    const a = await reader();
    await buy(a.agent, bookId, 'ebook');
    await buy(a.agent, bookId, 'hardcover');
    const b = await reader();
    await buy(b.agent, bookId, 'audiobook');
    const ebook = await purchaseOf(a.user.id, 'ebook');
    const hardcover = await purchaseOf(a.user.id, 'hardcover');
    const audiobook = await purchaseOf(b.user.id, 'audiobook');
    const bought = ebook.price + hardcover.price + audiobook.price;
    let body = await expectSalesMatchOrders();
    expect(body.salesStats.totalSales).toBe(before.totalSales + 3);
    expect(body.salesStats.totalRevenue).toBe(before.totalRevenue + bought);

    // Shipping changes the status but not the sale.
    const shipped = await admin.post(`/api/admin/orders/${hardcover.id}/ship`, {});
    expect(shipped.statusCode, shipped.body).toBe(200);
    body = await expectSalesMatchOrders();
    expect(body.salesStats.totalRevenue).toBe(before.totalRevenue + bought);

    // A partial refund takes its amount off the revenue and leaves the sale.
    expect((await admin.post(`/api/admin/orders/${ebook.id}/refund`, { amount: 300 })).statusCode).toBe(200);
    body = await expectSalesMatchOrders();
    expect(body.salesStats.totalSales).toBe(before.totalSales + 3);
    expect(body.salesStats.totalRevenue).toBe(before.totalRevenue + bought - 300);

    // A whole refund takes the sale off, with what was left of its price.
    expect((await admin.post(`/api/admin/orders/${audiobook.id}/refund`)).statusCode).toBe(200);
    body = await expectSalesMatchOrders();
    expect(body.salesStats.totalSales).toBe(before.totalSales + 2);
    expect(body.salesStats.totalRevenue).toBe(before.totalRevenue + bought - 300 - audiobook.price);
    const perBook = body.salesStats.salesByBook.find((x: { id: number }) => x.id === bookId);
    expect(perBook.salesByFormat.audiobook).toBe(0);

    // A sale moved to another day (a correction by hand) moves in the roll-up, and the chart follows.
    await t.database.db.update(purchases).set({ purchaseDate: new Date('2024-02-10T23:30:00Z') }).where(eq(purchases.id, hardcover.id));
    body = await expectSalesMatchOrders();
    const series = (await admin.get('/api/dashboard/sales?range=all')).json();
    expect(series.bucket).toBe('month');
    expect(series.points.find((p: { period: string }) => p.period === '2024-02')).toEqual({ period: '2024-02', sales: 1, revenue: hardcover.price });

    // A purchase deleted outright is gone from the figures too.
    await t.database.db.delete(purchases).where(eq(purchases.paidByPurchaseId, hardcover.id));
    await t.database.db.delete(purchases).where(eq(purchases.id, hardcover.id));
    body = await expectSalesMatchOrders();
    expect(body.salesStats.totalRevenue).toBe(before.totalRevenue + ebook.price - 300);
  });

  /** The Subscribers page's totals of the whole list, against the list counted as that page once counted it. */
  async function expectSubscriberTotalsMatch() {
    const [counted] = await rows<{ total: number; active: number; unconfirmed: number }>(
      `select count(*)::int as total, (count(*) filter (where unsubscribed_at is null))::int as active,
              (count(*) filter (where state = 'unconfirmed'))::int as unconfirmed from newsletter_subscribers`,
    );
    const res = await admin.get('/api/admin/subscribers?limit=1');
    expect(res.statusCode, res.body).toBe(200);
    const { total, active, unconfirmed } = res.json();
    expect({ total, active, unconfirmed }).toEqual(counted);
    return counted;
  }

  /** The readers and subscriptions counted as the Subscribers page and decision 0022 define them. */
  async function expectReadersMatch() {
    await expectSubscriberTotalsMatch();
    const [counted] = await rows<{ readers: number; subscribed: number; active: number }>(
      `select (select count(*)::int from users where role = 'user' and lower(username) <> 'demo-reader') as readers,
              (select count(*)::int from users u where u.role = 'user' and lower(u.username) <> 'demo-reader' and exists (
                 select 1 from newsletter_subscribers s where s.unsubscribed_at is null and (s.user_id = u.id or lower(s.email) = lower(u.email)))) as subscribed,
              (select count(*)::int from newsletter_subscribers where unsubscribed_at is null) as active`,
    );
    const { userStats } = await stats();
    expect(userStats).toMatchObject({ totalUsers: counted.readers, subscribedUsers: counted.subscribed, newsletterSubscribers: counted.active });
    return userStats as { totalUsers: number; subscribedUsers: number; newsletterSubscribers: number };
  }

  it('keeps readers, subscribed readers and subscribers equal to the accounts and the list through every change', async () => {
    const start = await expectReadersMatch();
    const a = await createUser(t.database);
    const b = await createUser(t.database);
    expect(await expectReadersMatch()).toMatchObject({ totalUsers: start.totalUsers + 2, subscribedUsers: start.subscribedUsers });

    // By address (in capitals), by the account's link under another address, and a visitor without an account.
    const [byAddress] = await t.database.db
      .insert(newsletterSubscribers)
      .values({ email: a.email.toUpperCase(), name: 'A' })
      .returning({ id: newsletterSubscribers.id });
    await t.database.db.insert(newsletterSubscribers).values([
      { email: 'elsewhere@example.net', name: 'B', userId: b.id },
      { email: 'visitor-0104@example.com', name: 'Visitor' },
    ]);
    expect(await expectReadersMatch()).toMatchObject({ subscribedUsers: start.subscribedUsers + 2, newsletterSubscribers: start.newsletterSubscribers + 3 });

    // A leaves the list; B changes the account's address to the visitor's (still subscribed by the link).
    await t.database.db
      .update(newsletterSubscribers)
      .set({ state: 'unsubscribed', unsubscribedAt: new Date() })
      .where(eq(newsletterSubscribers.id, byAddress.id));
    await t.database.db.update(users).set({ email: 'visitor-0104@example.com' }).where(eq(users.id, b.id));
    expect(await expectReadersMatch()).toMatchObject({ subscribedUsers: start.subscribedUsers + 1, newsletterSubscribers: start.newsletterSubscribers + 2 });

    // B's link goes; the visitor's address keeps B subscribed. Then B becomes an admin: no longer a reader.
    await t.database.db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.userId, b.id));
    expect(await expectReadersMatch()).toMatchObject({ subscribedUsers: start.subscribedUsers + 1 });
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, b.id));
    expect(await expectReadersMatch()).toMatchObject({ totalUsers: start.totalUsers + 1, subscribedUsers: start.subscribedUsers });

    // A comes back under a new address on the list, and the address of the account follows.
    await t.database.db.insert(newsletterSubscribers).values({ email: 'a-new-0104@example.org', name: 'A again' });
    expect(await expectReadersMatch()).toMatchObject({ subscribedUsers: start.subscribedUsers });
    await t.database.db.update(users).set({ email: 'A-NEW-0104@example.org' }).where(eq(users.id, a.id));
    expect(await expectReadersMatch()).toMatchObject({ subscribedUsers: start.subscribedUsers + 1 });
  });

  it('keeps readers and subscriptions right through statements that write many accounts and subscriptions at once', async () => {
    const start = await expectReadersMatch();
    // 300 accounts in one statement: every third subscribed by address (in capitals), every fifth linked.
    await rows(
      `insert into users (username, email, password_hash, created_at)
         select 'many-0036-' || g, 'many-0036-' || g || '@example.com', 'x', now() from generate_series(1, 300) g`,
    );
    await rows(
      `insert into newsletter_subscribers (email, name, user_id)
         select upper(u.email), 'Many', case when u.id % 5 = 0 then u.id end from users u
         where u.username like 'many-0036-%' and (u.id % 3 = 0 or u.id % 5 = 0)`,
    );
    const added = await expectReadersMatch();
    expect(added.totalUsers).toBe(start.totalUsers + 300);
    expect(added.subscribedUsers).toBeGreaterThan(start.subscribedUsers + 100);

    // Many at once: half leave the list, a tenth become admins, some change address, a sign-in touches nothing.
    await rows(`update newsletter_subscribers set unsubscribed_at = now(), state = 'unsubscribed' where name = 'Many' and id % 2 = 0`);
    await rows(`update users set role = 'admin' where username like 'many-0036-%' and id % 10 = 0`);
    await rows(`update users set email = 'moved-' || email where username like 'many-0036-%' and id % 7 = 0`);
    await rows(`update users set password_changed_at = now() where username like 'many-0036-%'`);
    await expectReadersMatch();

    // And out again, many at a time.
    await rows(`delete from newsletter_subscribers where name = 'Many' and id % 3 = 0`);
    await expectReadersMatch();
    await rows(`delete from newsletter_subscribers where name = 'Many'`);
    await rows(`delete from users where username like 'many-0036-%'`);
    expect(await expectReadersMatch()).toEqual(start);
  });

  it('keeps the whole list, the active and the unconfirmed subscribers through sign-ups, confirmations and unsubscriptions many at a time', async () => {
    const start = await expectSubscriberTotalsMatch();
    // 200 in one statement: most unconfirmed, every fourth confirmed, every tenth already gone.
    await rows(
      `insert into newsletter_subscribers (email, name, state, unsubscribed_at)
         select 'totals-0037-' || g || '@example.com', 'Totals',
                case when g % 10 = 0 then 'unsubscribed' when g % 4 = 0 then 'confirmed' else 'unconfirmed' end,
                case when g % 10 = 0 then now() end
         from generate_series(1, 200) g`,
    );
    const added = await expectSubscriberTotalsMatch();
    expect(added).toEqual({ total: start.total + 200, active: start.active + 180, unconfirmed: start.unconfirmed + 140 });

    // Half the unconfirmed confirm at once: the list and the active stay, the unconfirmed go down.
    await rows(`update newsletter_subscribers set state = 'confirmed', confirmed_at = now() where name = 'Totals' and state = 'unconfirmed' and id % 2 = 0`);
    const confirmed = await expectSubscriberTotalsMatch();
    expect(confirmed).toMatchObject({ total: added.total, active: added.active });
    expect(confirmed.unconfirmed).toBeLessThan(added.unconfirmed);
    // A bounce changes the state alone: out of the unconfirmed, still on the list and still active.
    await rows(`update newsletter_subscribers set state = 'bounced' where name = 'Totals' and state = 'unconfirmed' and id % 5 = 0`);
    const bounced = await expectSubscriberTotalsMatch();
    expect(bounced).toMatchObject({ total: added.total, active: added.active });
    expect(bounced.unconfirmed).toBeLessThan(confirmed.unconfirmed);

    // Some leave from either state; a renaming and a new confirmation link change no total.
    await rows(`update newsletter_subscribers set state = 'unsubscribed', unsubscribed_at = now() where name = 'Totals' and state <> 'unsubscribed' and id % 3 = 0`);
    const left = await expectSubscriberTotalsMatch();
    expect(left.total).toBe(added.total);
    expect(left.active).toBeLessThan(bounced.active);
    await rows(`update newsletter_subscribers set name = 'Totals', confirm_token_expires_at = now() where name = 'Totals'`);
    expect(await expectSubscriberTotalsMatch()).toEqual(left);

    // Signing up again after leaving starts unconfirmed (double opt-in), in one statement with the rest.
    await rows(`update newsletter_subscribers set state = 'unconfirmed', unsubscribed_at = null where name = 'Totals' and state = 'unsubscribed'`);
    await expectReadersMatch();

    // Out again, many at a time, back to where the list started.
    await rows(`delete from newsletter_subscribers where name = 'Totals' and id % 2 = 1`);
    await expectReadersMatch();
    await rows(`delete from newsletter_subscribers where name = 'Totals'`);
    expect(await expectSubscriberTotalsMatch()).toEqual(start);
  });

  /** The inbox's unread count as the messages list answers it, against the messages counted as it once counted them. */
  async function expectUnreadMessagesMatch() {
    const [{ unread: counted }] = await rows<{ unread: number }>('select count(*)::int as unread from contact_messages where read_at is null');
    const res = await admin.get('/api/admin/messages?filter=unread&limit=1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().unread).toBe(counted);
    return counted;
  }

  it('keeps the unread messages through messages written, marked read and unread, and deleted many at a time', async () => {
    const start = await expectUnreadMessagesMatch();
    // 120 in one statement: every third already read.
    await rows(
      `insert into contact_messages (name, email, subject, message, read_at)
         select 'Inbox 0038', 'inbox-0038-' || g || '@example.com', 'Other', 'Message ' || g, case when g % 3 = 0 then now() end
         from generate_series(1, 120) g`,
    );
    expect(await expectUnreadMessagesMatch()).toBe(start + 80);

    // Many marked read at once, the ones already read among them (their time kept: no change for them).
    await rows(`update contact_messages set read_at = coalesce(read_at, now()) where name = 'Inbox 0038' and id % 2 = 0`);
    const marked = await expectUnreadMessagesMatch();
    expect(marked).toBeLessThan(start + 80);
    // An update that leaves every message as read or unread as it was does not write the total at all.
    const version = () => rows<{ v: string }>(`select xmin::text as v from row_counts where name = 'unread_messages'`);
    const unchanged = await version();
    await rows(`update contact_messages set message = message || '.' where name = 'Inbox 0038'`);
    expect(await version()).toEqual(unchanged);
    expect(await expectUnreadMessagesMatch()).toBe(marked);

    // The author marks one unread again, and one read, as the inbox does.
    const [again] = await rows<{ id: number }>(`select id from contact_messages where name = 'Inbox 0038' and read_at is not null order by id limit 1`);
    expect((await admin.post(`/api/admin/messages/${again.id}/read`, { read: false })).statusCode).toBe(200);
    expect(await expectUnreadMessagesMatch()).toBe(marked + 1);
    expect((await admin.post(`/api/admin/messages/${again.id}/read`, { read: true })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/messages/${again.id}/read`, { read: true })).statusCode).toBe(200);
    expect(await expectUnreadMessagesMatch()).toBe(marked);

    // Read and unread back and forth in one statement: some of each at once.
    await rows(`update contact_messages set read_at = case when read_at is null then now() end where name = 'Inbox 0038' and id % 5 = 0`);
    await expectUnreadMessagesMatch();

    // Out again, read and unread together, back to where the inbox started.
    await rows(`delete from contact_messages where name = 'Inbox 0038' and id % 3 = 0`);
    await expectUnreadMessagesMatch();
    await rows(`delete from contact_messages where name = 'Inbox 0038'`);
    expect(await expectUnreadMessagesMatch()).toBe(start);
  });

  it('counts activities written and removed many at a time', async () => {
    const { user } = await reader();
    const start = (await stats()).engagementStats.totalActivities as number;
    await t.database.db
      .insert(userActivities)
      .values(Array.from({ length: 25 }, (_, i) => ({ userId: user.id, type: 'share', platform: 'x', points: 5, dedupeKey: `running-${i}` })));
    expect((await stats()).engagementStats.totalActivities).toBe(start + 25);
    const some = await t.database.db.select({ id: userActivities.id }).from(userActivities).where(eq(userActivities.userId, user.id)).limit(10);
    await t.database.db.delete(userActivities).where(inArray(userActivities.id, some.map((r) => r.id)));
    expect((await stats()).engagementStats.totalActivities).toBe(start + 15);
    const [{ n }] = await rows<{ n: number }>('select count(*)::int as n from user_activities');
    expect(start + 15).toBe(n);
  });
});
