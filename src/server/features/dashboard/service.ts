import { and, asc, count, desc, eq, gte, inArray, isNull, ne, sql, sum } from 'drizzle-orm';
import { PURCHASE_FORMATS } from '@shared/constants';
import type { DashboardStats, SalesByFormat, SalesRange, SalesSeries } from '@shared/schemas/dashboard';
import type { DbOrTx } from '../../db/client';
import { qualified } from '../../db/qualified';
import { blogPosts, books, downloadTransfers, newsletterSubscribers, purchases, reviews, userActivities, users } from '../../db/schema';
import { DEMO_READER } from '../../platform/demo-reader';

/** Purchases that count as a sale: paid for and not refunded (pending checkouts are not sales yet). */
export const SALE_STATUSES = ['completed', 'shipped'] as const;
/** Rows someone paid for; an included ebook or a claimed gift is counted on the row that paid for it. */
export const SALE_KINDS = ['paid', 'gift'] as const;
const isSale = and(inArray(purchases.status, [...SALE_STATUSES]), inArray(purchases.kind, [...SALE_KINDS]))!;

const int = (v: unknown) => Number(v ?? 0);

/**
 * SPEC 3 statistics, every figure an aggregate computed by the database: the number of rows never
 * reaches this process, only one row per book and format.
 */
export async function getDashboardStats(db: DbOrTx): Promise<DashboardStats> {
  // Decision 0022: the people who read, so neither the author's admin accounts nor the shared demo reader.
  // "Subscribed" means what the Subscribers page means: an active newsletter subscription, matched to the
  // account by its link or by its address (a reader may have subscribed before registering).
  const activeSubscription = sql`exists (select 1 from ${newsletterSubscribers}
      where ${qualified(newsletterSubscribers.unsubscribedAt)} is null
        and (${qualified(newsletterSubscribers.userId)} = ${qualified(users.id)}
             or lower(${qualified(newsletterSubscribers.email)}) = lower(${qualified(users.email)})))`;
  const [userRow] = await db
    .select({
      total: count(),
      subscribed: sql<number>`count(*) filter (where ${activeSubscription})`.mapWith(Number),
    })
    .from(users)
    .where(and(eq(users.role, 'user'), ne(sql`lower(${users.username})`, DEMO_READER.username)));
  const [subscriberRow] = await db
    .select({ n: count() })
    .from(newsletterSubscribers)
    .where(isNull(newsletterSubscribers.unsubscribedAt));

  // One row per book and format, books without sales included (left join), so the author sees them at 0.
  const perFormat = await db
    .select({
      id: books.id,
      title: books.title,
      format: purchases.format,
      sales: count(purchases.id),
      revenue: sum(purchases.price).mapWith(Number),
    })
    .from(books)
    .leftJoin(purchases, and(eq(purchases.bookId, books.id), isSale))
    .groupBy(books.id, books.title, purchases.format)
    .orderBy(asc(books.id));

  const byBook = new Map<number, DashboardStats['salesStats']['salesByBook'][number]>();
  let totalSales = 0;
  let totalRevenue = 0;
  for (const row of perFormat) {
    let book = byBook.get(row.id);
    if (!book) {
      book = { id: row.id, title: row.title, totalSales: 0, revenue: 0, salesByFormat: emptyFormats() };
      byBook.set(row.id, book);
    }
    if (!row.format) continue;
    const sales = int(row.sales);
    const revenue = int(row.revenue);
    book.totalSales += sales;
    book.revenue += revenue;
    totalSales += sales;
    totalRevenue += revenue;
    if (row.format in book.salesByFormat) book.salesByFormat[row.format as keyof SalesByFormat] += sales;
  }
  const salesByBook = [...byBook.values()].sort((a, b) => b.revenue - a.revenue || a.id - b.id);

  const [bookRow] = await db.select({ n: count() }).from(books);
  const [reviewRow] = await db
    .select({ n: count(), avg: sql<number | null>`avg(${reviews.rating})`.mapWith(Number) })
    .from(reviews);
  const [postRow] = await db
    .select({
      total: count(),
      published: sql<number>`count(*) filter (where ${blogPosts.isPublished})`.mapWith(Number),
    })
    .from(blogPosts);
  const [activityRow] = await db.select({ n: count() }).from(userActivities);
  // Every download link ever issued (one per spent download), so an admin's reset of a purchase's counter
  // gives the buyer a download back without taking one off the total.
  const [downloadRow] = await db.select({ n: count() }).from(downloadTransfers);

  const totalUsers = int(userRow.total);
  const subscribedUsers = int(userRow.subscribed);
  return {
    userStats: {
      totalUsers,
      subscribedUsers,
      percentSubscribed: totalUsers === 0 ? 0 : round((subscribedUsers / totalUsers) * 100, 2),
      newsletterSubscribers: int(subscriberRow.n),
    },
    salesStats: { totalSales, totalRevenue, salesByBook },
    contentStats: {
      totalBooks: int(bookRow.n),
      totalReviews: int(reviewRow.n),
      avgRating: reviewRow.avg == null || Number.isNaN(reviewRow.avg) ? 0 : round(reviewRow.avg, 2),
      publishedPosts: int(postRow.published),
      totalPosts: int(postRow.total),
    },
    engagementStats: { totalActivities: int(activityRow.n), totalDownloads: int(downloadRow.n) },
  };
}

function emptyFormats(): SalesByFormat {
  return { hardcover: 0, paperback: 0, ebook: 0, audiobook: 0 };
}

function round(value: number, places: number): number {
  const f = 10 ** places;
  return Math.round(value * f) / f;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const RANGE_DAYS: Record<Exclude<SalesRange, 'all'>, number> = { '30d': 30, '90d': 90 };
/** All-time spans longer than this are drawn per month, so the chart stays readable. */
const MONTHLY_AFTER_DAYS = 120;

const dayKey = (d: Date) => d.toISOString().slice(0, 10);
const monthKey = (d: Date) => d.toISOString().slice(0, 7);

/**
 * Sales and revenue per day (or month) and the split by format over a range, aggregated in SQL
 * (group by the UTC day). Empty buckets are filled with zeros so the chart has an even axis.
 */
export async function getSalesSeries(db: DbOrTx, range: SalesRange, now: Date): Promise<SalesSeries> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  let from: Date | null = null;
  if (range !== 'all') from = new Date(today.getTime() - (RANGE_DAYS[range] - 1) * DAY_MS);
  const where = from ? and(isSale, gte(purchases.purchaseDate, from)) : isSale;

  if (!from) {
    const [first] = await db
      .select({ at: sql<string | null>`min(${purchases.purchaseDate})` })
      .from(purchases)
      .where(isSale);
    from = first?.at ? new Date(first.at) : today;
    from = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  }
  const bucket: SalesSeries['bucket'] =
    range === 'all' && today.getTime() - from.getTime() > MONTHLY_AFTER_DAYS * DAY_MS ? 'month' : 'day';
  const pattern = bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const period = sql<string>`to_char(${purchases.purchaseDate} at time zone 'UTC', ${sql.raw(`'${pattern}'`)})`;

  const rows = await db
    .select({ period, sales: count(), revenue: sum(purchases.price).mapWith(Number) })
    .from(purchases)
    .where(where)
    .groupBy(period)
    .orderBy(period);
  const found = new Map(rows.map((r) => [r.period, r]));

  const points: SalesSeries['points'] = [];
  const cursor = new Date(from);
  if (bucket === 'month') cursor.setUTCDate(1);
  while (cursor.getTime() <= today.getTime()) {
    const key = bucket === 'day' ? dayKey(cursor) : monthKey(cursor);
    const row = found.get(key);
    points.push({ period: key, sales: int(row?.sales), revenue: int(row?.revenue) });
    if (bucket === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }

  const formatRows = await db
    .select({ format: purchases.format, sales: count(), revenue: sum(purchases.price).mapWith(Number) })
    .from(purchases)
    .where(where)
    .groupBy(purchases.format)
    .orderBy(desc(count()));
  const byFormat = new Map(formatRows.map((r) => [r.format, r]));
  const formats = PURCHASE_FORMATS.map((format) => ({
    format,
    sales: int(byFormat.get(format)?.sales),
    revenue: int(byFormat.get(format)?.revenue),
  }));
  return { range, bucket, points, formats };
}
