import { asc, eq, sql } from 'drizzle-orm';
import { EARLY_READER_RATING } from '@shared/constants';
import type { GalleryCover, SiteAnswer, SiteContent, SiteFormat } from '@shared/schemas/site';
import type { DbOrTx } from '../../db/client';
import { books, reviews } from '../../db/schema';
import { getFeaturedBook, getUpcomingBook, listPrices } from '../books/service';
import { getSetting } from '../../platform/settings';

type FormatContent = Omit<SiteFormat, 'price'>;

export async function getSiteContent(db: DbOrTx): Promise<SiteContent | null> {
  return getSetting<SiteContent>(db, 'site.content');
}

export async function listReviews(db: DbOrTx, bookId: number) {
  return db
    .select({ id: reviews.id, rating: reviews.rating, text: reviews.text, author: reviews.author, title: reviews.title })
    .from(reviews)
    .where(eq(reviews.bookId, bookId))
    .orderBy(asc(reviews.id));
}

const stripBook = <T extends { featured?: boolean }>(book: T) => {
  const { featured: _featured, ...rest } = book;
  return rest;
};

/** Everything the home page shows, read from the database (the admin may have changed any of it). */
export async function getSiteData(db: DbOrTx): Promise<Omit<SiteAnswer, 'demoLogin'>> {
  const [content, gallery, formatContent, featured, upcoming] = await Promise.all([
    getSiteContent(db),
    getSetting<GalleryCover[]>(db, 'site.gallery'),
    getSetting<FormatContent[]>(db, 'site.formats'),
    getFeaturedBook(db),
    getUpcomingBook(db),
  ]);
  if (!content) throw new Error('site.content is missing: the database has not been seeded');
  const [bookReviews, prices] = featured
    ? await Promise.all([listReviews(db, featured.id), listPrices(db, featured.id)])
    : [[], []];
  const priceOf = new Map(prices.map((p) => [p.format, p.price]));
  return {
    content,
    featuredBook: featured ? stripBook(featured) : null,
    upcomingBook: upcoming ? stripBook(upcoming) : null,
    reviews: bookReviews,
    // SPEC 2: the early-reader rating shown is a fixed 4.8; the count is the reviews actually held.
    rating: { value: EARLY_READER_RATING, count: bookReviews.length },
    gallery: gallery ?? [],
    formats: (formatContent ?? []).map((f) => ({ ...f, price: priceOf.get(f.id) ?? null })),
  };
}

/** Newest change to any book, for sitemap lastmod. */
export async function lastBookUpdate(db: DbOrTx): Promise<Date | null> {
  const [row] = await db.select({ at: sql<Date | string | null>`max(${books.updatedAt})` }).from(books);
  return row?.at ? new Date(row.at) : null;
}
