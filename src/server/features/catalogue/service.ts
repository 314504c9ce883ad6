import { asc, desc, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Book } from '@shared/schemas/books';
import type { BookPage, Catalogue, CatalogueBook } from '@shared/schemas/catalogue';
import type { DbOrTx } from '../../db/client';
import { books } from '../../db/schema';
import { bookColumns, isPublished } from '../books/service';
import { listStoreFormats } from '../checkout/service';

export const BOOK_NOT_FOUND = 'Book not found';
/** The author's name, as the catalogue's structured data and the private feeds give it. */
export const AUTHOR = 'Callum Reyes';

interface CatalogueData {
  catalogue: Catalogue;
  /** Each published book with its synopsis, by slug. */
  pages: Map<string, BookPage>;
  /** Each published book as the purchase section reads it, by id. */
  byId: Map<number, Book>;
}


async function loadCatalogue(db: DbOrTx): Promise<CatalogueData> {
  const rows = await db
    .select({ ...bookColumns, releaseAt: books.releaseAt })
    .from(books)
    .where(isPublished)
    // The book on sale first, then each series in its order, then the rest by release.
    .orderBy(desc(books.featured), sql`${books.series} is null`, asc(books.series), asc(books.seriesNumber), desc(books.yearPublished), asc(books.id));
  const pages = new Map<string, BookPage>();
  const byId = new Map<number, Book>();
  const list: CatalogueBook[] = [];
  for (const { releaseAt, synopsis, includeEbookWithPrint, ...row } of rows) {
    const book: Book = { ...row, synopsis, includeEbookWithPrint };
    const { formats } = await listStoreFormats(db, book);
    const entry: CatalogueBook = {
      id: row.id,
      slug: row.slug,
      title: row.title,
      coverImage: row.coverImage,
      tagline: row.tagline,
      series: row.series,
      seriesNumber: row.seriesNumber,
      yearPublished: row.yearPublished,
      publisher: row.publisher,
      featured: row.featured,
      releaseAt: releaseAt?.toISOString() ?? null,
      formats,
    };
    list.push(entry);
    pages.set(row.slug, { ...entry, synopsis });
    byId.set(row.id, book);
  }
  return { catalogue: { books: list }, pages, byId };
}

/** The published books from the public cache (filled on first use, cleared by any admin change). */
export function catalogueData(deps: AppDeps): Promise<CatalogueData> {
  return deps.cache.get('catalogue', () => loadCatalogue(deps.database.db));
}
