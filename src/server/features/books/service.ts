import { asc, count, desc, eq } from 'drizzle-orm';
import type { Book } from '@shared/schemas/books';
import type { PurchaseFormat } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { bookPrices, books } from '../../db/schema';
import { bookColumns, isPublished } from './columns';

// What other features may use of this one (their only way in).
export { bookColumns, isPublished } from './columns';
export { createBook, setTeaserVideo, updateBook } from './editing';

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
