import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, books, downloadTransfers, newsletterSubscribers, purchases, reviews, userActivities, users } from '../../db/schema';
import { DEMO_READER } from '../../platform/operations/demo-reader';
import { buy, featuredBookId } from '../checkout/test-support';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';

const book = (title: string, featured: boolean) => ({
  title,
  slug: title.toLowerCase().replace(/ /g, '-'),
  coverImage: '/c.svg',
  tagline: 't',
  synopsis: 'a synopsis long enough',
  yearPublished: 2026,
  publisher: 'P',
  featured,
});

/**
 * A fixture small enough to count by hand:
 * users: admin + 4 readers + the demo reader; readers counted: 4, of whom 1 has an active newsletter
 * subscription -> 25%. Active subscriptions: the admin's, reader 0's, a visitor's -> 3 (one more has left).
 * downloads: two links issued, recorded in download_transfers.
 * purchases (sales are completed or shipped only):
 *   A hardcover 2499 completed, A hardcover 2499 shipped, A ebook 999 completed (downloaded once),
 *   A audiobook 1499 refunded (not a sale), A paperback 1699 pending (not a sale),
 *   B ebook 999 completed (downloaded once)
 *   -> 4 sales, revenue 2499*2 + 999 + 999 = 6996; A: 3 sales 5997; B: 1 sale 999; downloads 2.
 * reviews 5, 4, 4 on A -> avg 4.33; posts: 3, 2 published; activities: 3.
 */
describe('dashboard API', () => {
  let t: TestApp;
  let admin: TestAgent;
  let bookA: number;
  let bookB: number;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    const db = t.database.db;
    const adminUser = await createUser(t.database, { role: 'admin' });
    const readers = [];
    for (let i = 0; i < 4; i++) readers.push(await createUser(t.database));
    await createUser(t.database, { username: DEMO_READER.username, email: DEMO_READER.email });
    // The admin (by address), reader 0 (by account) and a visitor subscribe; reader 1 subscribed and left.
    // The users' own flag says otherwise for reader 2 and is not what counts.
    await db.update(users).set({ isSubscribed: true }).where(inArray(users.id, [readers[2].id]));
    await db.insert(newsletterSubscribers).values([
      { email: adminUser.email.toUpperCase(), name: 'Admin' },
      { email: 'other-address@example.com', name: 'R0', userId: readers[0].id },
      { email: 'visitor@example.com', name: 'Visitor' },
      { email: readers[1].email, name: 'R1', state: 'unsubscribed', unsubscribedAt: new Date('2026-11-01T00:00:00Z') },
    ]);
    [{ id: bookA }] = await db.insert(books).values(book('Book A', true)).returning({ id: books.id });
    [{ id: bookB }] = await db.insert(books).values(book('Book B', false)).returning({ id: books.id });
    const day = (d: string) => new Date(`${d}T10:00:00Z`);
    let ref = 0;
    const p = (userId: number, bookId: number, format: string, price: number, status: string, date: string, downloads = 0) => ({
      userId,
      bookId,
      format,
      price,
      status,
      purchaseDate: day(date),
      orderReference: `ord-${++ref}`,
      downloadCount: downloads,
      downloadUsed: downloads > 0,
    });
    await db.insert(purchases).values([
      p(readers[0].id, bookA, 'hardcover', 2499, 'completed', '2026-11-20'),
      p(readers[1].id, bookA, 'hardcover', 2499, 'shipped', '2026-11-20'),
      p(readers[1].id, bookA, 'ebook', 999, 'completed', '2026-10-01', 1),
      p(readers[2].id, bookA, 'audiobook', 1499, 'refunded', '2026-11-19'),
      p(readers[2].id, bookA, 'paperback', 1699, 'pending', '2026-11-19'),
      p(readers[3].id, bookB, 'ebook', 999, 'completed', '2025-01-15', 1),
    ]);
    const spent = await db.select({ id: purchases.id, userId: purchases.userId, format: purchases.format }).from(purchases).where(eq(purchases.downloadCount, 1));
    await db.insert(downloadTransfers).values(spent.map((s, i) => ({ linkId: `fixture-link-${i}`, purchaseId: s.id, userId: s.userId, format: s.format })));
    await db.insert(reviews).values([
      { bookId: bookA, rating: 5, text: 'x', author: 'a', title: 'r' },
      { bookId: bookA, rating: 4, text: 'x', author: 'b', title: 'r' },
      { bookId: bookA, rating: 4, text: 'x', author: 'c', title: 'r' },
    ]);
    await db.insert(blogPosts).values([
      { title: 'One', slug: 'one', content: '<p>1</p>', excerpt: 'e', isPublished: true },
      { title: 'Two', slug: 'two', content: '<p>2</p>', excerpt: 'e', isPublished: true },
      { title: 'Three', slug: 'three', content: '<p>3</p>', excerpt: 'e', isPublished: false },
    ]);
    await db.insert(userActivities).values([
      { userId: readers[0].id, type: 'share', platform: 'x', points: 10 },
      { userId: readers[0].id, type: 'subscribe', points: 50 },
      { userId: readers[1].id, type: 'share', platform: 'facebook', points: 10 },
    ]);
    admin = await signedInAgent(t.app, adminUser.id);
  });
  afterAll(async () => t.close());

  it('refuses anonymous callers (401) and normal users (403)', async () => {
    for (const url of ['/api/dashboard/stats', '/api/dashboard/sales?range=30d']) {
      const anon = await new TestAgent(t.app).get(url);
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      const reader = await createUser(t.database);
      const res = await (await signedInAgent(t.app, reader.id)).get(url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('answers the dashboard statistics computed by hand', async () => {
    const res = await admin.get('/api/dashboard/stats');
    expect(res.statusCode).toBe(200);
    // createUser in the 401/403 test may have added readers: count what the fixture holds now.
    const body = res.json();
    const total = body.userStats.totalUsers;
    expect(body.userStats.subscribedUsers).toBe(1);
    expect(body.userStats.percentSubscribed).toBeCloseTo((1 / total) * 100, 2);
    expect(body.userStats.newsletterSubscribers).toBe(3);
    expect(body.salesStats).toEqual({
      totalSales: 4,
      totalRevenue: 6996,
      salesByBook: [
        {
          id: bookA,
          title: 'Book A',
          totalSales: 3,
          revenue: 5997,
          salesByFormat: { hardcover: 2, paperback: 0, ebook: 1, audiobook: 0 },
        },
        {
          id: bookB,
          title: 'Book B',
          totalSales: 1,
          revenue: 999,
          salesByFormat: { hardcover: 0, paperback: 0, ebook: 1, audiobook: 0 },
        },
      ],
    });
    expect(body.contentStats).toEqual({
      totalBooks: 2,
      totalReviews: 3,
      avgRating: 4.33,
      publishedPosts: 2,
      totalPosts: 3,
    });
    expect(body.engagementStats).toEqual({ totalActivities: 3, totalDownloads: 2 });
  });

  it('counts readers only (not admins, not the demo reader): exactly 4 and 50% subscribed', async () => {
    const fresh = await createTestApp({ seed: false });
    try {
      const a = await createUser(fresh.database, { role: 'admin' });
      await createUser(fresh.database, { role: 'admin' });
      await createUser(fresh.database, { username: DEMO_READER.username, email: DEMO_READER.email });
      const first = await createUser(fresh.database);
      const second = await createUser(fresh.database);
      for (let i = 0; i < 2; i++) await createUser(fresh.database);
      await fresh.database.db.insert(newsletterSubscribers).values([
        { email: first.email, name: 'First' },
        { email: second.email, name: 'Second', userId: second.id },
        { email: DEMO_READER.email, name: 'Demo' },
        { email: a.email, name: 'Admin' },
      ]);
      const agent = await signedInAgent(fresh.app, a.id);
      const body = (await agent.get('/api/dashboard/stats')).json();
      expect(body.userStats).toEqual({ totalUsers: 4, subscribedUsers: 2, percentSubscribed: 50, newsletterSubscribers: 4 });
      expect(body.salesStats).toEqual({ totalSales: 0, totalRevenue: 0, salesByBook: [] });
      expect(body.contentStats.avgRating).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('counts newsletter subscribers as the Subscribers page does (active ones)', async () => {
    const listed = (await admin.get('/api/admin/subscribers')).json() as { items: Array<{ unsubscribedAt: string | null }>; active: number };
    const active = listed.items.filter((s) => s.unsubscribedAt === null).length;
    expect(active).toBe(3);
    expect(listed.active).toBe(3);
    expect((await admin.get('/api/dashboard/stats')).json().userStats.newsletterSubscribers).toBe(active);
  });

  it('Total downloads counts downloads given, and does not go down when an admin resets one', async () => {
    const fresh = await createTestApp();
    try {
      const a = await createUser(fresh.database, { role: 'admin' });
      const agent = await signedInAgent(fresh.app, a.id);
      const reader = await createUser(fresh.database);
      const readerAgent = await signedInAgent(fresh.app, reader.id);
      const bookId = await featuredBookId(fresh.app);
      const paid = await buy(readerAgent, bookId, 'ebook');
      const assets = (await readerAgent.get(`/api/books/${bookId}/assets?format=ebook`)).json();
      const link = () => readerAgent.get(`/api/digital-assets/${assets.asset.id}/download`, { auth: 'bearer' });
      const total = async () => (await agent.get('/api/dashboard/stats')).json().engagementStats.totalDownloads;
      expect(await total()).toBe(0);
      expect((await link()).statusCode).toBe(200);
      expect(await total()).toBe(1);
      const [purchase] = await fresh.database.db.select().from(purchases).where(eq(purchases.orderReference, paid.orderReference!));
      const reset = await agent.post(`/api/admin/orders/${purchase.id}/reset-download`);
      expect(reset.statusCode, reset.body).toBe(200);
      expect(await total()).toBe(1);
      expect((await link()).statusCode).toBe(200);
      expect(await total()).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  it('answers sales over the last 30 days per day, with the format split', async () => {
    // The test clock stands at 2026-11-21.
    const res = await admin.get('/api/dashboard/sales?range=30d');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.bucket).toBe('day');
    expect(body.points).toHaveLength(30);
    expect(body.points[0].period).toBe('2026-10-23');
    expect(body.points.at(-1)).toEqual({ period: '2026-11-21', sales: 0, revenue: 0 });
    expect(body.points.find((p: { period: string }) => p.period === '2026-11-20')).toEqual({
      period: '2026-11-20',
      sales: 2,
      revenue: 4998,
    });
    expect(body.points.reduce((n: number, p: { sales: number }) => n + p.sales, 0)).toBe(2);
    expect(body.formats).toEqual([
      { format: 'hardcover', sales: 2, revenue: 4998 },
      { format: 'paperback', sales: 0, revenue: 0 },
      { format: 'ebook', sales: 0, revenue: 0 },
      { format: 'audiobook', sales: 0, revenue: 0 },
    ]);
  });

  it('answers 90 days and all time (monthly when the span is long)', async () => {
    const ninety = (await admin.get('/api/dashboard/sales?range=90d')).json();
    expect(ninety.points).toHaveLength(90);
    expect(ninety.formats.find((f: { format: string }) => f.format === 'ebook')).toEqual({
      format: 'ebook',
      sales: 1,
      revenue: 999,
    });
    const all = (await admin.get('/api/dashboard/sales?range=all')).json();
    expect(all.bucket).toBe('month');
    expect(all.points[0]).toEqual({ period: '2025-01', sales: 1, revenue: 999 });
    expect(all.points.at(-1)).toEqual({ period: '2026-11', sales: 2, revenue: 4998 });
    expect(all.points).toHaveLength(23);
    expect(all.points.reduce((n: number, p: { revenue: number }) => n + p.revenue, 0)).toBe(6996);
  });

  it('rejects an unknown range', async () => {
    const res = await admin.get('/api/dashboard/sales?range=7d');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});
