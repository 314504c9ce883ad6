import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, books, purchases, reviews, userActivities, users } from '../../db/schema';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';

const book = (title: string, featured: boolean) => ({
  title,
  coverImage: '/c.svg',
  tagline: 't',
  synopsis: 'a synopsis long enough',
  yearPublished: 2026,
  publisher: 'P',
  featured,
});

/**
 * A fixture small enough to count by hand:
 * users: admin + 4 readers, 2 of the 5 subscribed -> 40%.
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
    // the admin and one reader subscribe
    await db.update(users).set({ isSubscribed: true }).where(inArray(users.id, [adminUser.id, readers[0].id]));
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

  it('answers the SPEC 3 statistics computed by hand', async () => {
    const res = await admin.get('/api/dashboard/stats');
    expect(res.statusCode).toBe(200);
    // createUser in the 401/403 test may have added readers: count what the fixture holds now.
    const body = res.json();
    const total = body.userStats.totalUsers;
    expect(body.userStats.subscribedUsers).toBe(2);
    expect(body.userStats.percentSubscribed).toBeCloseTo((2 / total) * 100, 2);
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

  it('counts exactly 5 users and 40% subscribed before anyone else registers', async () => {
    const fresh = await createTestApp({ seed: false });
    try {
      const a = await createUser(fresh.database, { role: 'admin' });
      const first = await createUser(fresh.database);
      for (let i = 0; i < 3; i++) await createUser(fresh.database);
      await fresh.database.db.update(users).set({ isSubscribed: true }).where(inArray(users.id, [a.id, first.id]));
      const agent = await signedInAgent(fresh.app, a.id);
      const body = (await agent.get('/api/dashboard/stats')).json();
      expect(body.userStats).toEqual({ totalUsers: 5, subscribedUsers: 2, percentSubscribed: 40 });
      expect(body.salesStats).toEqual({ totalSales: 0, totalRevenue: 0, salesByBook: [] });
      expect(body.contentStats.avgRating).toBe(0);
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
