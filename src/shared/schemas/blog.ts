import { z } from 'zod';
import { text } from './common';

/** A blog post as the site reads it: `id` is the slug (SPEC 3 "On the site ... id (slug)"). */
export const blogPostSummarySchema = z.object({
  id: text(),
  title: text(),
  /** ISO 8601 publication time. */
  date: text(),
  author: text(),
  bookId: z.number().int().nullable(),
  /** The related book's title, so readers see a name rather than a number (absent on older cached answers). */
  bookTitle: text().nullable().optional(),
  excerpt: text(),
  coverImage: text().nullable(),
  tags: z.array(text()),
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

export const blogPostSchema = blogPostSummarySchema.extend({
  /** Sanitized HTML. */
  content: text(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;

export const blogSlugParam = z.object({ slug: text().min(1).max(200) });
