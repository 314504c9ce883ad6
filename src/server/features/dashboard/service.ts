import { asc, count, eq, gt, gte, sql, sum } from 'drizzle-orm';
import { PURCHASE_FORMATS } from '@shared/constants';
import type { DashboardStats, SalesByFormat, SalesRange, SalesSeries } from '@shared/schemas/dashboard';
import type { DbOrTx } from '../../db/client';
import { blogPosts, books, reviews, salesDaily } from '../../db/schema';
import { runningCounts } from '../../db/row-counts';

const int = (v: unknown) => Number(v ?? 0);

/**
 * The statistics of docs/PRODUCT.md, Dashboard. A sale is a purchase paid for and not refunded (completed or
 * shipped; pending checkouts are not sales yet) on the row that paid (paid or gift: an included ebook or a
 * claimed gift is counted on the row that paid for it), worth its price less what was refunded of it
 * (decision 0082); migration 0033 keeps those per day, and the figures below are read from running totals.
 */
export async function getDashboardStats(db: DbOrTx): Promise<DashboardStats> {
  // Decision 0022: the people who read, so neither the author's admin accounts nor the shared demo reader.
  // "Subscribed" means what the Subscribers page means: an active newsletter subscription, matched to the
  // account by its link or by its address (a reader may have subscribed before registering).
  // Decision 0104: those figures, and the counts of the largest tables, are running totals kept by triggers in
  // the transaction of every write that changes them, so a request reads a few rows instead of counting millions.
  const counted = await runningCounts(db, RUNNING_COUNTS);

  // One row per book and format, books without sales included (left join), so the author sees them at 0.
  // Sales are summed per book and format from the daily roll-up (a few rows per day), then joined to the books.
  const sold = db
    .select({
      bookId: salesDaily.bookId,
      format: salesDaily.format,
      sales: sum(salesDaily.sales).as('sales'),
      revenue: sum(salesDaily.revenue).as('revenue'),
    })
    .from(salesDaily)
    .groupBy(salesDaily.bookId, salesDaily.format)
    .as('sold');
  const perFormat = await db
    .select({ id: books.id, title: books.title, format: sold.format, sales: sold.sales, revenue: sold.revenue })
    .from(books)
    .leftJoin(sold, eq(sold.bookId, books.id))
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
  const totalUsers = counted.readers;
  const subscribedUsers = counted.subscribed_readers;
  return {
    userStats: {
      totalUsers,
      subscribedUsers,
      percentSubscribed: totalUsers === 0 ? 0 : round((subscribedUsers / totalUsers) * 100, 2),
      newsletterSubscribers: counted.active_subscribers,
    },
    salesStats: { totalSales, totalRevenue, salesByBook },
    contentStats: {
      totalBooks: int(bookRow.n),
      totalReviews: int(reviewRow.n),
      avgRating: reviewRow.avg == null || Number.isNaN(reviewRow.avg) ? 0 : round(reviewRow.avg, 2),
      publishedPosts: int(postRow.published),
      totalPosts: int(postRow.total),
    },
    // Every download link ever issued (one per spent download), so an admin's reset of a purchase's counter
    // gives the buyer a download back without taking one off the total.
    engagementStats: { totalActivities: counted.user_activities, totalDownloads: counted.download_transfers },
  };
}

const RUNNING_COUNTS = ['readers', 'subscribed_readers', 'active_subscribers', 'user_activities', 'download_transfers'] as const;

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
  const dayOf = (d: Date) => d.toISOString().slice(0, 10);

  if (!from) {
    const [first] = await db
      .select({ day: sql<string | null>`min(${salesDaily.day})::text` })
      .from(salesDaily)
      .where(gt(salesDaily.sales, 0));
    from = first?.day ? new Date(`${first.day}T00:00:00Z`) : today;
  }
  const bucket: SalesSeries['bucket'] =
    range === 'all' && today.getTime() - from.getTime() > MONTHLY_AFTER_DAYS * DAY_MS ? 'month' : 'day';

  // The daily roll-up (decision 0104) holds a row per UTC day, book and format: at most a few thousand rows
  // for all time, summed per bucket and format; the chart's points and the format split are both sums of these.
  const period = bucket === 'day' ? sql<string>`${salesDaily.day}::text` : sql<string>`to_char(${salesDaily.day}, 'YYYY-MM')`;
  const rows = await db
    .select({
      period,
      format: salesDaily.format,
      sales: sql<number>`sum(${salesDaily.sales})`.mapWith(Number),
      revenue: sql<number>`sum(${salesDaily.revenue})`.mapWith(Number),
    })
    .from(salesDaily)
    .where(range === 'all' ? undefined : gte(salesDaily.day, dayOf(from)))
    .groupBy(period, salesDaily.format);

  const perPeriod = new Map<string, { sales: number; revenue: number }>();
  const perFormat = new Map<string, { sales: number; revenue: number }>();
  const add = (into: Map<string, { sales: number; revenue: number }>, key: string, sales: number, revenue: number) => {
    const sum = into.get(key) ?? { sales: 0, revenue: 0 };
    sum.sales += sales;
    sum.revenue += revenue;
    into.set(key, sum);
  };
  for (const row of rows) {
    add(perPeriod, row.period, int(row.sales), int(row.revenue));
    add(perFormat, row.format, int(row.sales), int(row.revenue));
  }

  const points: SalesSeries['points'] = [];
  const cursor = new Date(from);
  if (bucket === 'month') cursor.setUTCDate(1);
  while (cursor.getTime() <= today.getTime()) {
    const key = bucket === 'day' ? dayKey(cursor) : monthKey(cursor);
    const found = perPeriod.get(key);
    points.push({ period: key, sales: found?.sales ?? 0, revenue: found?.revenue ?? 0 });
    if (bucket === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  const formats = PURCHASE_FORMATS.map((format) => ({
    format,
    sales: perFormat.get(format)?.sales ?? 0,
    revenue: perFormat.get(format)?.revenue ?? 0,
  }));
  return { range, bucket, points, formats };
}
