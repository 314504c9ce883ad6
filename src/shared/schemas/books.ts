import { z } from 'zod';
import { text } from './common';
import { SYNOPSIS_MIN_LENGTH, YEAR_MIN } from '../constants';

export const bookSchema = z.object({
  id: z.number().int(),
  title: text(),
  coverImage: text(),
  tagline: text(),
  synopsis: text(),
  yearPublished: z.number().int(),
  publisher: text(),
  featured: z.boolean(),
  /** A paid hardcover or paperback also gives this book's ebook (issue 15). */
  includeEbookWithPrint: z.boolean().optional(),
});
export type Book = z.infer<typeof bookSchema>;

export const featuredBookSchema = z.object({ id: z.number().int(), title: text() });
export type FeaturedBook = z.infer<typeof featuredBookSchema>;

/** Book form (SPEC 5): one schema for the admin form and for the admin API. */
export const bookInputSchema = z.object({
  title: text().trim().min(1, 'Title is required').max(200),
  tagline: text().trim().min(1, 'Tagline is required').max(300),
  synopsis: text()
    .trim()
    .min(SYNOPSIS_MIN_LENGTH, `Synopsis must be at least ${SYNOPSIS_MIN_LENGTH} characters`)
    .max(20_000),
  coverImage: text().trim().min(1, 'Cover image URL is required').max(500),
  yearPublished: z.coerce
    .number({ message: 'Year published must be a valid year' })
    .int('Year published must be a valid year')
    .min(YEAR_MIN, 'Year published must be a valid year')
    .max(9999, 'Year published must be a valid year'),
  publisher: text().trim().min(1, 'Publisher is required').max(200),
  featured: z.boolean().default(false),
  /** Left out: unchanged on edit, on for a new book. */
  includeEbookWithPrint: z.boolean().optional(),
});
export type BookInput = z.infer<typeof bookInputSchema>;

/**
 * A book edit (PUT /api/admin/books/{id}): the same body, but an edit that leaves out `featured` keeps the
 * book's current value instead of taking it off sale. No omitted field changes a book: the text fields
 * and the year are required (left out, they are refused with their SPEC 5 message), the flags are kept.
 */
export const bookUpdateSchema = bookInputSchema.extend({ featured: z.boolean().optional() });
export type BookUpdate = z.infer<typeof bookUpdateSchema>;
