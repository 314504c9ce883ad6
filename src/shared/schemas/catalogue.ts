/** The catalogue (/books) and a book's own page (/books/{slug}): every published book (decision 0075). */
import { z } from 'zod';
import { text } from './common';
import { storeFormatSchema } from './checkout';

export const catalogueBookSchema = z.object({
  id: z.number().int(),
  slug: text(),
  title: text(),
  coverImage: text(),
  tagline: text(),
  series: text().nullable(),
  seriesNumber: z.number().int().nullable(),
  yearPublished: z.number().int(),
  publisher: text(),
  featured: z.boolean(),
  /** Set while the book is on pre-order or once it came out on that date (ISO); null for the featured book. */
  releaseAt: text().nullable(),
  /** The formats on sale with their server prices, as the purchase section shows them. */
  formats: z.array(storeFormatSchema),
});
export type CatalogueBook = z.infer<typeof catalogueBookSchema>;

export const catalogueSchema = z.object({ books: z.array(catalogueBookSchema) });
export type Catalogue = z.infer<typeof catalogueSchema>;

export const bookPageSchema = catalogueBookSchema.extend({ synopsis: text() });
export type BookPage = z.infer<typeof bookPageSchema>;

export const bookSlugParams = z.object({ slug: text().max(200) });

/** The catalogue's address of a book. */
export const bookPath = (slug: string) => `/books/${slug}`;

/** "Book 2 of The Harrow Trilogy", or null for a book outside a series. */
export function seriesLabel(book: { series: string | null; seriesNumber: number | null }): string | null {
  if (!book.series) return null;
  return book.seriesNumber ? `Book ${book.seriesNumber} of ${book.series}` : book.series;
}
