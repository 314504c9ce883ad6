import { z } from 'zod';

/** A blog post as the site reads it: `id` is the slug (SPEC 3 "On the site ... id (slug)"). */
export const blogPostSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** ISO 8601 publication time. */
  date: z.string(),
  author: z.string(),
  bookId: z.number().int().nullable(),
  excerpt: z.string(),
  coverImage: z.string().nullable(),
  tags: z.array(z.string()),
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

export const blogPostSchema = blogPostSummarySchema.extend({
  /** Sanitized HTML. */
  content: z.string(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;

export const blogSlugParam = z.object({ slug: z.string().min(1).max(200) });
