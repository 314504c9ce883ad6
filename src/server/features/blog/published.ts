import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { blogPostSchema, blogPostSummarySchema, type BlogPost, type BlogPostSummary } from '@shared/schemas/blog';
import { type CachedAnswer, jsonAnswer } from '../../platform/cached-answer';
import { sanitizePostHtml } from './sanitize';
import { listPublishedPostsWithContent } from './service';

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

async function loadBlog(app: FastifyInstance): Promise<PublishedBlog> {
  const now = app.deps.clock.now().getTime();
  const all = await listPublishedPostsWithContent(app.deps.database.db);
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
export function publishedBlog(app: FastifyInstance): Promise<PublishedBlog> {
  return app.deps.cache.get('blog', () => loadBlog(app), { staleAt: (blog) => blog.nextPublishAt });
}
