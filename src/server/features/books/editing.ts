import { and, eq, ne } from 'drizzle-orm';
import { DEFAULT_PRICES, PURCHASE_FORMATS } from '@shared/constants';
import type { Book, BookInput, BookUpdate } from '@shared/schemas/books';
import type { Db, DbOrTx } from '../../db/client';
import { bookPrices, books } from '../../db/schema';
import { conflict, notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { bookColumns } from './columns';
import { uniqueBookSlug } from '../../db/book-slugs';

/** Only one book is on sale: featuring one unfeatures the others in the same transaction. */
async function unfeatureOthers(tx: DbOrTx, keepId: number | null, now: Date) {
  await tx
    .update(books)
    .set({ featured: false, updatedAt: now })
    .where(keepId === null ? eq(books.featured, true) : and(eq(books.featured, true), ne(books.id, keepId)));
}

export const SLUG_TAKEN_MESSAGE = 'Another book already has this web address';

async function refuseRacingFeature<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const index = uniqueViolation(error);
    if (index === 'books_slug_uq') throw conflict(SLUG_TAKEN_MESSAGE);
    // Two admins featuring different books at the same moment: the partial unique index decides.
    if (index !== null) throw conflict('Another book was featured at the same time. Please try again.');
    throw error;
  }
}

/** A book leaving its series leaves its number too (the number means nothing alone). */
const withSeriesRule = <T extends { series?: string | null; seriesNumber?: number | null }>(input: T): T =>
  input.series === null ? { ...input, seriesNumber: null } : input;

/** The teaser video the public site shows for the upcoming book (edited with the site settings). */
export async function setTeaserVideo(tx: DbOrTx, bookId: number, videoId: string | null, now: Date): Promise<void> {
  await tx.update(books).set({ teaserVideoId: videoId, updatedAt: now }).where(eq(books.id, bookId));
}

export function createBook(db: Db, input: BookInput, actorId: ActorId, now: Date): Promise<Book> {
  return refuseRacingFeature(() =>
    db.transaction(async (tx) => {
      if (input.featured) await unfeatureOthers(tx, null, now);
      const slug = input.slug ?? (await uniqueBookSlug(tx, input.title));
      const [row] = await tx.insert(books).values(withSeriesRule({ ...input, slug })).returning(bookColumns);
      // A new book is sellable at the list prices until someone sets others.
      await tx
        .insert(bookPrices)
        .values(PURCHASE_FORMATS.map((format) => ({ bookId: row.id, format, price: DEFAULT_PRICES[format] })))
        .onConflictDoNothing();
      await audit(tx, actorId, { action: 'book.create', targetType: 'book', targetId: row.id, details: { ...input } }, now);
      return row;
    }),
  );
}

/** Applies an edit; a flag the edit leaves out (featured, includeEbookWithPrint) keeps its value. */
export function updateBook(db: Db, id: number, edit: BookUpdate, actorId: ActorId, now: Date): Promise<Book> {
  const input = Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined)) as Partial<BookInput>;
  return refuseRacingFeature(() =>
    db.transaction(async (tx): Promise<Book> => {
      const [before] = await tx.select(bookColumns).from(books).where(eq(books.id, id)).for('update');
      if (!before) throw notFound('Book not found');
      if (input.featured) await unfeatureOthers(tx, id, now);
      const [row] = await tx
        .update(books)
        .set({ ...withSeriesRule(input), updatedAt: now })
        .where(eq(books.id, id))
        .returning(bookColumns);
      const changed = Object.fromEntries(Object.entries(input).filter(([k, v]) => before[k as keyof Book] !== v));
      await audit(tx, actorId, { action: 'book.update', targetType: 'book', targetId: id, details: { changed } }, now);
      return row;
    }),
  );
}
