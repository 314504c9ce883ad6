import { and, desc, eq, lte } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { z } from 'zod';
import { BLOG_PAGE_SIZE } from '@shared/constants';
import { blogPageSchema, blogPostSchema, blogPostSummarySchema, type BlogPage, type BlogPost, type BlogPostSummary } from '@shared/schemas/blog';
import type { DbOrTx } from '../../db/client';
import { blogPosts, books, users } from '../../db/schema';
import { type CachedAnswer, jsonAnswer } from '../../platform/http/cached-answer';
import { RecentlyUsed } from '../../platform/http/recently-used';
import { sanitizePostHtml } from './sanitize';

// What other features may use of this one (their only way in).
export { sanitizePostHtml } from './sanitize';
export { createPost, getAdminPost, listAdminPosts, setPostPublished, updatePost } from './admin-posts';

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

/** One page of the blog list and its answer. */
export interface PublishedPage {
  page: BlogPage;
  answer: CachedAnswer;
}

/** The published blog as the public sees it now, built once per cache fill. */
export interface PublishedBlog {
  /** Due posts, newest first (the sitemap and feed read them; no page embeds them all). */
  posts: BlogPostSummary[];
  /** GET /api/blog: `limit` posts from page `page` as a plain list; null past the last page. */
  list(page: number, limit: number): Promise<CachedAnswer | null>;
  /** Page `page` of /blog (BLOG_PAGE_SIZE posts); null past the last page. Page 1 always exists. */
  page(page: number): Promise<PublishedPage | null>;
  /** A due post by slug (any case), its HTML cleaned once; null when there is no such post. */
  find(slug: string): Promise<PublishedPost | null>;
  /** When the next scheduled post becomes due (epoch ms): the cached blog is out of date from then. */
  nextPublishAt: number | null;
}

/** Pages of the list at least 1 long: an empty blog still has its first, empty, page. */
export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/**
 * Answers built per fill are kept for the pages read lately only: a crawler walking every page of a long
 * archive (or every `limit`) must not make the cache hold the archive many times over.
 */
const PAGE_ANSWERS_KEPT = 64;

async function loadBlog(deps: AppDeps): Promise<PublishedBlog> {
  const now = deps.clock.now().getTime();
  const all = await listPublishedPostsWithContent(deps.database.db);
  const due = all.filter((p) => p.publishedAt.getTime() <= now);
  const future = all.filter((p) => p.publishedAt.getTime() > now).map((p) => p.publishedAt.getTime());
  const bySlug = new Map(due.map((p) => [p.id, p]));
  const built = new Map<string, Promise<PublishedPost>>();
  const posts = due.map(({ rawContent: _content, publishedAt: _at, ...summary }) => summary);
  const lists = new RecentlyUsed<Promise<CachedAnswer>>(PAGE_ANSWERS_KEPT);
  const pages = new RecentlyUsed<Promise<PublishedPage>>(PAGE_ANSWERS_KEPT);
  return {
    posts,
    nextPublishAt: future.length ? Math.min(...future) : null,
    list(page, limit) {
      if (page > pageCount(posts.length, limit)) return Promise.resolve(null);
      const key = `${page}:${limit}`;
      let entry = lists.get(key);
      if (!entry) {
        entry = jsonAnswer(z.array(blogPostSummarySchema), posts.slice((page - 1) * limit, page * limit));
        lists.set(key, entry);
      }
      return entry;
    },
    page(n) {
      const totalPages = pageCount(posts.length, BLOG_PAGE_SIZE);
      if (n > totalPages) return Promise.resolve(null);
      let entry = pages.get(String(n));
      if (!entry) {
        const page: BlogPage = {
          posts: posts.slice((n - 1) * BLOG_PAGE_SIZE, n * BLOG_PAGE_SIZE),
          page: n,
          pageSize: BLOG_PAGE_SIZE,
          totalPosts: posts.length,
          totalPages,
          prevPage: n > 1 ? n - 1 : null,
          nextPage: n < totalPages ? n + 1 : null,
        };
        entry = jsonAnswer(blogPageSchema, page).then((answer) => ({ page, answer }));
        pages.set(String(n), entry);
      }
      return entry;
    },
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
