/**
 * Blog reads (ADR 0067): the latest posts for the home page (GET /api/blog?limit=3), one page of the blog
 * list (GET /api/blog/page/{n}) and one post by slug (GET /api/blog/{slug}). No read holds the whole archive.
 */
import { useQuery } from '@tanstack/react-query';
import { BLOG_TEASER_COUNT } from '@shared/constants';
import type { BlogPage, BlogPost, BlogPostSummary } from '@shared/schemas/blog';

/** The home page's posts; the server embeds this answer under the same key. */
export const LATEST_POSTS_KEY = [`/api/blog?limit=${BLOG_TEASER_COUNT}`] as const;

export function useLatestPosts() {
  return useQuery<BlogPostSummary[]>({ queryKey: LATEST_POSTS_KEY });
}

/** Page `page` of /blog; a page past the last answers 404, which the server already embedded, so no retry on mount. */
export function useBlogPage(page: number) {
  return useQuery<BlogPage>({ queryKey: ['/api/blog/page', page], retryOnMount: false });
}

export function useBlogPost(slug: string) {
  // A missing post the server already answered (embedded in the page) is not asked for again.
  return useQuery<BlogPost>({ queryKey: ['/api/blog', slug], enabled: slug.length > 0, retryOnMount: false });
}

/** docs/PRODUCT.md, Blog list: "MMMM d, yyyy" (e.g. November 5, 2026), in UTC so every reader sees the published day. */
const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function formatPostDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE_FORMAT.format(date);
}
