import { and, desc, eq, lte } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { z } from 'zod';
import { blogPostSchema, blogPostSummarySchema, type BlogPost, type BlogPostSummary } from '@shared/schemas/blog';
import type { DbOrTx } from '../../db/client';
import { blogPosts, books, users } from '../../db/schema';
import { type CachedAnswer, jsonAnswer } from '../../platform/cached-answer';
import { sanitizePostHtml } from './sanitize';

// What other features may use of this one (their only way in).
export { sanitizePostHtml } from './sanitize';

const DEFAULT_AUTHOR = 'Callum Reyes';

const summaryColumns = {
  slug: blogPosts.slug,
  title: blogPosts.title,
  publishedAt: blogPosts.publishedAt,
  authorName: blogPosts.authorName,
  authorDisplayName: users.displayName,
  bookId: blogPosts.bookId,
  bookTitle: books.title,
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
  bookTitle: string | null;
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
    bookTitle: row.bookTitle,
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
    .leftJoin(books, eq(books.id, blogPosts.bookId))
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
    .leftJoin(books, eq(books.id, blogPosts.bookId))
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
    .leftJoin(books, eq(books.id, blogPosts.bookId))
    .where(eq(blogPosts.isPublished, true))
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id));
  return rows.map((row) => ({ ...toSummary(row), rawContent: row.content, publishedAt: row.publishedAt }));
}

// --- the published blog, as the public cache holds it ---------------------------------------------

export interface PublishedPost {
  post: BlogPost;
  answer: CachedAnswer;
}

/** The published blog as the public sees it now, built once per cache fill. */
export interface PublishedBlog {
  /** Due posts, newest first. */
  posts: BlogPostSummary[];
  list: CachedAnswer;
  /** A due post by slug (any case), its HTML cleaned once; null when there is no such post. */
  find(slug: string): Promise<PublishedPost | null>;
  /** When the next scheduled post becomes due (epoch ms): the cached blog is out of date from then. */
  nextPublishAt: number | null;
}

async function loadBlog(deps: AppDeps): Promise<PublishedBlog> {
  const now = deps.clock.now().getTime();
  const all = await listPublishedPostsWithContent(deps.database.db);
  const due = all.filter((p) => p.publishedAt.getTime() <= now);
  const future = all.filter((p) => p.publishedAt.getTime() > now).map((p) => p.publishedAt.getTime());
  const bySlug = new Map(due.map((p) => [p.id, p]));
  const built = new Map<string, Promise<PublishedPost>>();
  const posts = due.map(({ rawContent: _content, publishedAt: _at, ...summary }) => summary);
  return {
    posts,
    list: await jsonAnswer(z.array(blogPostSummarySchema), posts),
    nextPublishAt: future.length ? Math.min(...future) : null,
    find(slug) {
      const key = slug.toLowerCase();
      const row = bySlug.get(key);
      if (!row) return Promise.resolve(null);
      let entry = built.get(key);
      if (!entry) {
        // Cleaned on the way out as before (rows may predate a rule), but once per fill, not per request.
        const { rawContent, publishedAt: _at, ...summary } = row;
        const post: BlogPost = { ...summary, content: sanitizePostHtml(rawContent) };
        entry = jsonAnswer(blogPostSchema, post).then((answer) => ({ post, answer }));
        built.set(key, entry);
      }
      return entry;
    },
  };
}

/** The published blog from the public cache; a scheduled post appears when due (the entry goes stale then). */
export function publishedBlog(deps: AppDeps): Promise<PublishedBlog> {
  return deps.cache.get('blog', () => loadBlog(deps), { staleAt: (blog) => blog.nextPublishAt });
}
