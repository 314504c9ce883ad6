import type { AppDeps } from '../../deps';
import { z } from 'zod';
import { bookSchema, featuredBookSchema, type Book } from '@shared/schemas/books';
import type { DbOrTx } from '../../db/client';
import { bookPrices } from '../../db/schema';
import { type CachedAnswer, jsonAnswer } from '../../platform/http/cached-answer';
import { listBooks } from './service';

export const priceSchema = z.object({ format: z.string(), price: z.number().int(), currency: z.string() });

/** Every public books answer, built once per cache fill from two queries. */
export interface BookCatalog {
  list: CachedAnswer;
  featured: CachedAnswer | null;
  byId: Map<number, { book: CachedAnswer; prices: CachedAnswer }>;
}

async function loadCatalog(db: DbOrTx): Promise<BookCatalog> {
  const [books, prices] = await Promise.all([
    listBooks(db),
    db
      .select({ bookId: bookPrices.bookId, format: bookPrices.format, price: bookPrices.price, currency: bookPrices.currency })
      .from(bookPrices),
  ]);
  const featured: Book | undefined = books.find((b) => b.featured);
  const byId = new Map<number, { book: CachedAnswer; prices: CachedAnswer }>();
  await Promise.all(
    books.map(async (book) => {
      const own = prices.filter((p) => p.bookId === book.id).map(({ format, price, currency }) => ({ format, price, currency }));
      const [bookAnswer, pricesAnswer] = await Promise.all([
        jsonAnswer(bookSchema, book),
        jsonAnswer(z.array(priceSchema), own),
      ]);
      byId.set(book.id, { book: bookAnswer, prices: pricesAnswer });
    }),
  );
  return {
    list: await jsonAnswer(z.array(bookSchema), books),
    featured: featured ? await jsonAnswer(featuredBookSchema, { id: featured.id, title: featured.title }) : null,
    byId,
  };
}

/** The books answers from the public cache (filled on first use, cleared by any admin change). */
export function bookCatalog(deps: AppDeps): Promise<BookCatalog> {
  return deps.cache.get('books', () => loadCatalog(deps.database.db));
}
