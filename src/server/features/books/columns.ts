import { eq, isNotNull, or } from 'drizzle-orm';
import { books } from '../../db/schema';

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
