/**
 * The paths of the blog list's pages (ADR 0067): /blog is page 1, /blog/page/{n} page n from 2 on. Only
 * the canonical spelling of a page is a page; other spellings of a number are redirected to it.
 */

/** The page number a path of the blog list names, or null when the path is not one (any case, one trailing slash). */
export function blogListPageOf(pathname: string): number | null {
  if (/^\/blog\/?$/i.test(pathname)) return 1;
  const m = /^\/blog\/page\/([1-9]\d{0,5})\/?$/i.exec(pathname);
  if (!m) return null;
  const page = Number(m[1]);
  // Page 1 lives at /blog only: /blog/page/1 is redirected there, never drawn.
  return page >= 2 ? page : null;
}

/**
 * Where a non-canonical spelling of a page number goes: /blog/page/1 and /blog/page/0001 to /blog,
 * /blog/page/007 to /blog/page/7. Null for the canonical spelling and for anything that is no number
 * (those paths name no page: the not-found page answers them).
 */
export function canonicalBlogPagePath(raw: string): string | null {
  if (!/^\d{1,12}$/.test(raw)) return null;
  const page = Number(raw);
  if (page < 1) return null;
  if (page === 1) return '/blog';
  const canonical = `/blog/page/${page}`;
  return raw === String(page) ? null : canonical;
}
