import type { FastifyInstance } from 'fastify';

/** Posts drawn ahead at most: a long archive's older posts are drawn when first read. */
export const WARM_POSTS_LIMIT = 20;

/**
 * Draws the public pages (home, blog, the latest posts) once, right after the server starts listening, so
 * the first reader of each after a restart gets it from the cache rather than waiting while it is drawn
 * and compressed (tens of milliseconds each, taken from every request the server is answering then).
 * One page at a time, through the app's own routes, so each is built exactly as a reader's request would
 * build it. A page that fails is logged and left to its first reader.
 */
export async function warmPublicPages(app: FastifyInstance): Promise<string[]> {
  if (!app.deps.cache.enabled) return [];
  const paths = ['/', '/blog'];
  const blog = await app.inject({ url: `/api/blog?limit=${WARM_POSTS_LIMIT}` });
  if (blog.statusCode === 200) {
    const posts = blog.json<Array<{ id: string }>>();
    paths.push(...posts.slice(0, WARM_POSTS_LIMIT).map((post) => `/blog/${encodeURIComponent(post.id)}`));
  }
  const warmed: string[] = [];
  for (const url of paths) {
    const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    if (res.statusCode === 200) warmed.push(url);
    else app.log.warn({ url, statusCode: res.statusCode }, 'could not draw a public page ahead of its first reader');
    // Requests that arrived meanwhile go first.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return warmed;
}
