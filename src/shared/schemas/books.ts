import { z } from 'zod';
import { SYNOPSIS_MIN_LENGTH, YEAR_MIN } from '../constants';

export const bookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  coverImage: z.string(),
  tagline: z.string(),
  synopsis: z.string(),
  yearPublished: z.number().int(),
  publisher: z.string(),
  featured: z.boolean(),
});
export type Book = z.infer<typeof bookSchema>;

export const featuredBookSchema = z.object({ id: z.number().int(), title: z.string() });
export type FeaturedBook = z.infer<typeof featuredBookSchema>;

/** Book form (SPEC 5): one schema for the admin form and for the admin API. */
export const bookInputSchema = z.object({
  title: z.string().trim().min(1, 'Title is required').max(200),
  tagline: z.string().trim().min(1, 'Tagline is required').max(300),
  synopsis: z
    .string()
    .trim()
    .min(SYNOPSIS_MIN_LENGTH, `Synopsis must be at least ${SYNOPSIS_MIN_LENGTH} characters`)
    .max(20_000),
  coverImage: z.string().trim().min(1, 'Cover image URL is required').max(500),
  yearPublished: z.coerce
    .number({ message: 'Year published must be a valid year' })
    .int('Year published must be a valid year')
    .min(YEAR_MIN, 'Year published must be a valid year')
    .max(9999, 'Year published must be a valid year'),
  publisher: z.string().trim().min(1, 'Publisher is required').max(200),
  featured: z.boolean().default(false),
});
export type BookInput = z.infer<typeof bookInputSchema>;
