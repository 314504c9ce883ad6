import { z } from 'zod';
import { text } from './common';
import { SYNOPSIS_MIN_LENGTH, YEAR_MIN } from '../constants';
import { SLUG_PATTERN } from '../slug';

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
  /** The catalogue's address of the book, /books/{slug}, and its place in a series (decision 0075). */
  slug: text().optional(),
  series: text().nullable().optional(),
  seriesNumber: z.number().int().nullable().optional(),
});
export type Book = z.infer<typeof bookSchema>;

export const SERIES_NUMBER_MAX = 999;
const SERIES_NUMBER_MESSAGE = `Number in series must be a whole number from 1 to ${SERIES_NUMBER_MAX}`;

/** Blank is "none" (null); left out is "unchanged" (undefined). */
const blankIsNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : v);

const seriesFields = {
  series: text().trim().max(120, 'Series must be at most 120 characters').nullable().optional().transform(blankIsNull),
  seriesNumber: z
    .union([z.number(), text().trim(), z.null()], { message: SERIES_NUMBER_MESSAGE })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > SERIES_NUMBER_MAX) {
        ctx.addIssue({ code: 'custom', message: SERIES_NUMBER_MESSAGE });
        return z.NEVER;
      }
      return n;
    }),
};

/** A number in a series needs the series it is a number in. */
function seriesNeedsName(v: { series?: string | null; seriesNumber?: number | null }, ctx: z.RefinementCtx) {
  if (v.seriesNumber != null && !v.series) ctx.addIssue({ code: 'custom', path: ['series'], message: 'Give the series this is number ' + v.seriesNumber + ' of' });
}

export const featuredBookSchema = z.object({ id: z.number().int(), title: text() });
export type FeaturedBook = z.infer<typeof featuredBookSchema>;

const bookFields = z.object({
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
  /** Left out or blank: made from the title for a new book, unchanged on edit. */
  slug: text()
    .trim()
    .max(120, 'Web address must be at most 120 characters')
    .refine((v) => v === '' || SLUG_PATTERN.test(v), 'Web address may contain lower-case letters, numbers and dashes')
    .optional()
    .transform((v) => v || undefined),
  ...seriesFields,
});

/** Book form (docs/PRODUCT.md, Book form): one schema for the admin form and for the admin API. */
export const bookInputSchema = bookFields.superRefine(seriesNeedsName);
export type BookInput = z.infer<typeof bookInputSchema>;

/**
 * A book edit (PUT /api/admin/books/{id}): the same body, but an edit that leaves out `featured` keeps the
 * book's current value instead of taking it off sale. No omitted field changes a book: the text fields
 * and the year are required (left out, they are refused with their message (docs/PRODUCT.md, Book form)), the flags are kept.
 */
export const bookUpdateSchema = bookFields.extend({ featured: z.boolean().optional() }).superRefine(seriesNeedsName);
export type BookUpdate = z.infer<typeof bookUpdateSchema>;
