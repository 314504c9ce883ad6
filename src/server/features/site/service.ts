import { asc, eq, sql } from 'drizzle-orm';
import { EARLY_READER_RATING } from '@shared/constants';
import type { GalleryCover, SiteAnswer, SiteContent, SiteFormat } from '@shared/schemas/site';
import type { DbOrTx } from '../../db/client';
import { books, reviews } from '../../db/schema';
import { countPublishedBooks, getFeaturedBook, getUpcomingBook, listPrices } from '../books/service';
import { getSetting } from '../../platform/operations/settings';
import { verifiedReviewsOf } from '../reviews/service';

// What other features may use of this one (their only way in).
export { readSiteSettings, saveSiteSettings } from './settings';

/** A purchase format's display text as the author keeps it; the price comes from the book's prices. */
export type FormatContent = Omit<SiteFormat, 'price'>;

declare module '../../platform/operations/settings' {
  interface SettingTypes {
    /** The home page's text and the author's details (Admin Settings edits part of it). */
    'site.content': SiteContent;
    /** The purchase section's format cards, in the order shown. */
    'site.formats': FormatContent[];
    'site.gallery': GalleryCover[];
  }
}

export async function getSiteContent(db: DbOrTx): Promise<SiteContent | null> {
  return getSetting(db, 'site.content');
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
  const [content, gallery, formatContent, featured, upcoming, publishedBooks] = await Promise.all([
    getSiteContent(db),
    getSetting(db, 'site.gallery'),
    getSetting(db, 'site.formats'),
    getFeaturedBook(db),
    getUpcomingBook(db),
    countPublishedBooks(db),
  ]);
  if (!content) throw new Error('site.content is missing: the database has not been seeded');
  const [bookReviews, prices, verified] = featured
    ? await Promise.all([listReviews(db, featured.id), listPrices(db, featured.id), verifiedReviewsOf(db, featured.id)])
    : [[], [], { reviews: [], rating: null }];
  const priceOf = new Map(prices.map((p) => [p.format, p.price]));
  return {
    content,
    featuredBook: featured ? stripBook(featured) : null,
    upcomingBook: upcoming ? stripBook(upcoming) : null,
    reviews: bookReviews,
    // docs/PRODUCT.md, Reviews: the early-reader rating shown is a fixed 4.8; the count is the reviews actually held.
    rating: { value: EARLY_READER_RATING, count: bookReviews.length },
    verifiedReviews: verified.reviews,
    verifiedRating: verified.rating,
    gallery: gallery ?? [],
    formats: (formatContent ?? []).map((f) => ({ ...f, price: priceOf.get(f.id) ?? null })),
    publishedBooks,
  };
}

/** Newest change to any book, for sitemap lastmod. */
export async function lastBookUpdate(db: DbOrTx): Promise<Date | null> {
  const [row] = await db.select({ at: sql<Date | string | null>`max(${books.updatedAt})` }).from(books);
  return row?.at ? new Date(row.at) : null;
}
