/** Blog reads: the list (GET /api/blog) and one post by slug (GET /api/blog/{slug}). */
import { useQuery } from '@tanstack/react-query';
import type { BlogPost, BlogPostSummary } from '@shared/schemas/blog';

export const BLOG_LIST_KEY = ['/api/blog'] as const;

export function useBlogPosts() {
  return useQuery<BlogPostSummary[]>({ queryKey: BLOG_LIST_KEY });
}

export function useBlogPost(slug: string) {
  // A missing post the server already answered (embedded in the page) is not asked for again.
  return useQuery<BlogPost>({ queryKey: ['/api/blog', slug], enabled: slug.length > 0, retryOnMount: false });
}

/** SPEC 2 "MMMM d, yyyy" (e.g. November 5, 2026), in UTC so every reader sees the published day. */
const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function formatPostDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE_FORMAT.format(date);
}
