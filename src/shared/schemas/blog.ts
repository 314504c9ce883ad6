import { z } from 'zod';
import { BLOG_LIST_MAX_LIMIT, BLOG_PAGE_SIZE } from '../constants';
import { text } from './common';

/** A blog post as the site reads it: `id` is the slug (docs/PRODUCT.md, Stored posts). */
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

/** A page number as people type it: digits only, 1 or more (no signs, decimals or exponents). */
const pageNumber = (label: string) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${label} must be a whole number from 1`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${label} must be a whole number from 1`));

/** GET /api/blog: the newest posts as a plain list (its original shape), one page of `limit` at a time. */
export const blogListQuery = z.object({
  page: pageNumber('Page').default(1),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `Limit must be a whole number from 1 to ${BLOG_LIST_MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(BLOG_LIST_MAX_LIMIT, `Limit must be a whole number from 1 to ${BLOG_LIST_MAX_LIMIT}`))
    .default(BLOG_PAGE_SIZE),
});

/** GET /api/blog/page/{page}: one page of /blog. */
export const blogPageParam = z.object({ page: pageNumber('Page') });

/** The page segment of /blog/page/{page} as typed: checked by the route, which redirects other spellings of a number. */
export const blogPagePathParam = z.object({ page: z.string().max(200) });

/** One page of the blog list, with what the page links need. */
export const blogPageSchema = z.object({
  posts: z.array(blogPostSummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPosts: z.number().int(),
  /** At least 1: an empty blog still has its first (empty) page. */
  totalPages: z.number().int(),
  /** The page of newer posts, null on the first page. */
  prevPage: z.number().int().nullable(),
  /** The page of older posts, null on the last page. */
  nextPage: z.number().int().nullable(),
});
export type BlogPage = z.infer<typeof blogPageSchema>;

/** The path of page `page` of /blog: the first page is /blog itself. */
export const blogPagePath = (page: number) => (page <= 1 ? '/blog' : `/blog/page/${page}`);
