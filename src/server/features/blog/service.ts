import { and, desc, eq, lte } from 'drizzle-orm';
import type { BlogPost, BlogPostSummary } from '@shared/schemas/blog';
import type { DbOrTx } from '../../db/client';
import { blogPosts, users } from '../../db/schema';
import { sanitizePostHtml } from './sanitize';

// What other features may use of this one (their only way in).
export { publishedBlog } from './published';
export { sanitizePostHtml } from './sanitize';

const DEFAULT_AUTHOR = 'Callum Reyes';

const summaryColumns = {
  slug: blogPosts.slug,
  title: blogPosts.title,
  publishedAt: blogPosts.publishedAt,
  authorName: blogPosts.authorName,
  authorDisplayName: users.displayName,
  bookId: blogPosts.bookId,
  excerpt: blogPosts.excerpt,
  coverImage: blogPosts.coverImage,
  tags: blogPosts.tags,
};

type SummaryRow = {
  slug: string;
  title: string;
  publishedAt: Date;
  authorName: string | null;
  authorDisplayName: string | null;
  bookId: number | null;
  excerpt: string;
  coverImage: string | null;
  tags: string[];
};

function toSummary(row: SummaryRow): BlogPostSummary {
  return {
    id: row.slug,
    title: row.title,
    date: row.publishedAt.toISOString(),
    author: row.authorName ?? row.authorDisplayName ?? DEFAULT_AUTHOR,
    bookId: row.bookId,
    excerpt: row.excerpt,
    coverImage: row.coverImage,
    tags: row.tags,
  };
}

/** Published posts, newest first. A post scheduled for the future is not shown before its time. */
export async function listPublishedPosts(db: DbOrTx, now: Date, limit?: number): Promise<BlogPostSummary[]> {
  const query = db
    .select(summaryColumns)
    .from(blogPosts)
    .leftJoin(users, eq(users.id, blogPosts.authorId))
    .where(and(eq(blogPosts.isPublished, true), lte(blogPosts.publishedAt, now)))
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id));
  const rows = limit ? await query.limit(limit) : await query;
  return rows.map(toSummary);
}

/** One published post by slug, with its HTML cleaned again on the way out (rows may predate a rule). */
export async function getPublishedPost(db: DbOrTx, slug: string, now: Date): Promise<BlogPost | null> {
  const [row] = await db
    .select({ ...summaryColumns, content: blogPosts.content })
    .from(blogPosts)
    .leftJoin(users, eq(users.id, blogPosts.authorId))
    .where(and(eq(blogPosts.slug, slug.toLowerCase()), eq(blogPosts.isPublished, true), lte(blogPosts.publishedAt, now)))
    .limit(1);
  if (!row) return null;
  return { ...toSummary(row), content: sanitizePostHtml(row.content) };
}

/**
 * Every post marked published, scheduled ones included, newest first, with its stored HTML (not yet cleaned):
 * what the public cache is filled from. The caller decides what is due.
 */
export async function listPublishedPostsWithContent(db: DbOrTx): Promise<Array<BlogPostSummary & { rawContent: string; publishedAt: Date }>> {
  const rows = await db
    .select({ ...summaryColumns, content: blogPosts.content })
    .from(blogPosts)
    .leftJoin(users, eq(users.id, blogPosts.authorId))
    .where(eq(blogPosts.isPublished, true))
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id));
  return rows.map((row) => ({ ...toSummary(row), rawContent: row.content, publishedAt: row.publishedAt }));
}
