import { asc, count, desc, eq, isNotNull, or } from 'drizzle-orm';
import type { Book } from '@shared/schemas/books';
import type { PurchaseFormat } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { bookPrices, books } from '../../db/schema';

/** The public columns of a book (docs/PRODUCT.md, Data), shared by every query that answers with a book. */
export const bookColumns = {
  id: books.id,
  title: books.title,
  coverImage: books.coverImage,
  tagline: books.tagline,
  synopsis: books.synopsis,
  yearPublished: books.yearPublished,
  publisher: books.publisher,
  featured: books.featured,
  includeEbookWithPrint: books.includeEbookWithPrint,
  slug: books.slug,
  series: books.series,
  seriesNumber: books.seriesNumber,
};

/**
 * A book is published, listed in the catalogue and sold, when it is the featured book or the author gave
 * it a release date (on pre-order, or out): the rule checkout sells by (pre-orders' saleState).
 */
export const isPublished = or(eq(books.featured, true), isNotNull(books.releaseAt));

export async function countPublishedBooks(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(books).where(isPublished);
  return Number(row.n);
}

export async function listBooks(db: DbOrTx): Promise<Book[]> {
  return db.select(bookColumns).from(books).orderBy(desc(books.featured), asc(books.id));
}

export async function getBook(db: DbOrTx, id: number): Promise<Book | null> {
  const [row] = await db.select(bookColumns).from(books).where(eq(books.id, id)).limit(1);
  return row ?? null;
}

/** The book on sale. */
export async function getFeaturedBook(db: DbOrTx): Promise<Book | null> {
  const [row] = await db.select(bookColumns).from(books).where(eq(books.featured, true)).limit(1);
  return row ?? null;
}

/** The first non-featured book, shown as "Coming Soon", with its teaser video id. */
export async function getUpcomingBook(db: DbOrTx): Promise<(Book & { teaserVideoId: string | null }) | null> {
  const [row] = await db
    .select({ ...bookColumns, teaserVideoId: books.teaserVideoId })
    .from(books)
    .where(eq(books.featured, false))
    .orderBy(asc(books.id))
    .limit(1);
  return row ?? null;
}

/** The server's own price for a book and format, in minor units; null when it is not sold. */
export async function getPrice(
  db: DbOrTx,
  bookId: number,
  format: PurchaseFormat | string,
): Promise<{ price: number; currency: string } | null> {
  const rows = await db
    .select({ price: bookPrices.price, currency: bookPrices.currency, format: bookPrices.format })
    .from(bookPrices)
    .where(eq(bookPrices.bookId, bookId));
  const row = rows.find((r) => r.format === format);
  return row ? { price: row.price, currency: row.currency } : null;
}

export async function listPrices(db: DbOrTx, bookId: number) {
  return db
    .select({ format: bookPrices.format, price: bookPrices.price, currency: bookPrices.currency })
    .from(bookPrices)
    .where(eq(bookPrices.bookId, bookId));
}
