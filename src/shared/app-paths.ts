/**
 * The admin area's pages, as path patterns. The server answers a path outside them with the not-found
 * page and status 404 (a guessed admin path is not a page); the client router has one route for each
 * (a test keeps the two in step). Matched without regard to case, like the client router.
 */
export const ADMIN_PAGE_PATHS: readonly RegExp[] = [
  /^\/admin\/?$/i,
  /^\/admin\/books\/create\/?$/i,
  /^\/admin\/books\/edit\/[^/]+\/?$/i,
  /^\/admin\/posts\/?$/i,
  /^\/admin\/posts\/new\/?$/i,
  /^\/admin\/posts\/[^/]+\/edit\/?$/i,
  /^\/admin\/(files|orders|discounts|trace|messages|reviews|newsletter|subscribers|users|settings|system|tax|shipping|bundles|review-copies|free-book)\/?$/i,
  // A broadcast: /admin/newsletter/new, or one by its id.
  /^\/admin\/newsletter\/[^/]+\/?$/i,
];

export const isAdminPagePath = (pathname: string) => ADMIN_PAGE_PATHS.some((r) => r.test(pathname));

/** The reading room's owned-book routes: /read/{bookId}/{ebook|pdf} and /listen/{bookId}. */
export function readingRoomBookId(pathname: string): number | null {
  const m = /^\/(?:read\/(\d+)\/(?:ebook|pdf)|listen\/(\d+))\/?$/i.exec(pathname);
  if (!m) return null;
  const id = Number(m[1] ?? m[2]);
  return Number.isSafeInteger(id) ? id : null;
}
