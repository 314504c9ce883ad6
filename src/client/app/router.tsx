/**
 * Every route of docs/PRODUCT.md, Routes. Pages are lazy chunks so the home bundle carries no account, checkout,
 * dashboard or admin code; the guards are tiny and live in the main chunk. The first route that
 * matches wins (wouter's Switch); the last one catches everything else with the not-found page.
 */
import { lazy } from 'react';
import { Route, Switch } from '@client/lib/router';
import { preloadable } from '@client/lib/preloadable';
import { ADMIN_PAGE_PATHS } from '@shared/app-paths';
import { RootLayout } from './layouts/root-layout';

// The server-rendered pages: preloaded before the server renders them and before the browser hydrates.
// Reached by an in-app link, the home page waits for its sections too, so it appears whole and a link to
// one of its sections lands where the section stays.
const HomePage = preloadable(
  () => import('@client/pages/home'),
  () => import('@client/pages/home-sections/lazy-sections').then((m) => m.preloadSections()),
);
const BlogListPage = preloadable(() => import('@client/pages/blog-list'));
const BlogPostPage = preloadable(() => import('@client/pages/blog-post'));
const CataloguePage = preloadable(() => import('@client/pages/catalogue'));
const LoginPage = lazy(() => import('@client/pages/login'));
const ForgotPasswordPage = lazy(() => import('@client/pages/forgot-password'));
const ResetPasswordPage = lazy(() => import('@client/pages/reset-password'));
const ProfilePage = lazy(() => import('@client/pages/profile'));
const CheckoutPage = lazy(() => import('@client/pages/checkout'));
const GiftClaimPage = lazy(() => import('@client/pages/gift-claim'));
const NewsletterConfirmPage = lazy(() => import('@client/pages/newsletter-confirm'));
const FreeBookPage = lazy(() => import('@client/pages/free-book'));
const FreeBookConfirmPage = lazy(() => import('@client/pages/free-book-confirm'));
const ReviewCopiesPage = lazy(() => import('@client/pages/review-copies'));
const PayPage = lazy(() => import('@client/pages/pay'));
const BasketPage = lazy(() => import('@client/pages/basket'));
// The author's pages (the dashboard and the admin area), behind one lazy route table of their own (admin-routes.tsx).
const AdminRoutes = lazy(() => import('./admin-routes'));
// The reading room: the EPUB, PDF and audio code load only on these routes.
const ReadingRoomPage = lazy(() => import('@client/pages/reading-room'));
const NotFoundPage = preloadable(() => import('@client/pages/not-found'));

/** Every page the server renders, for the server to load before its first render. */
export const SERVER_RENDERED_PAGES = [HomePage, BlogListPage, BlogPostPage, CataloguePage, NotFoundPage];

const KNOWN_PATHS = [
  /^\/(login(-link)?|forgot-password|reset-password|profile|checkout|basket|dashboard)\/?$/i,
  ...ADMIN_PAGE_PATHS,
  /^\/pay\/[^/]+\/?$/i,
  /^\/gift\/[^/]+\/?$/i,
  /^\/newsletter\/confirm\/?$/i,
  /^\/free\/[^/]+(\/confirm)?\/?$/i,
  /^\/review-copies\/[a-z0-9-]+\/?$/i,
  /^\/read\/sample\/?$/i,
  /^\/read\/\d+\/(ebook|pdf)\/?$/i,
  /^\/listen\/\d+\/?$/i,
];

/**
 * Loads the code of the server-rendered page at `pathname` (none for the other routes), so that
 * hydration draws it at once. Mirrors the Switch below.
 */
export function preloadPage(pathname: string): Promise<void> {
  if (pathname === '/') {
    return Promise.all([
      HomePage.preload(),
      import('@client/pages/home-sections/lazy-sections').then((m) => m.preloadVisibleSections()),
    ]).then(() => undefined);
  }
  if (/^\/blog(\/page\/\d+)?\/?$/i.test(pathname)) return BlogListPage.preload();
  if (/^\/blog\/[^/]+\/?$/i.test(pathname)) return BlogPostPage.preload();
  if (/^\/books(\/[^/]+)?\/?$/i.test(pathname)) return CataloguePage.preload();
  if (KNOWN_PATHS.some((r) => r.test(pathname))) return Promise.resolve();
  return NotFoundPage.preload();
}


export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path="/"><HomePage /></Route>
        <Route path="/blog"><BlogListPage /></Route>
        <Route path="/blog/page/:page"><BlogListPage /></Route>
        <Route path="/blog/:id"><BlogPostPage /></Route>
        <Route path="/books/:slug?"><CataloguePage /></Route>
        {/* /login-link (an emailed sign-in link) is served by the login page's chunk, so it costs the home page nothing. */}
        <Route path={/^\/login(-link)?\/?$/i}><LoginPage /></Route>
        <Route path="/forgot-password"><ForgotPasswordPage /></Route>
        <Route path="/reset-password"><ResetPasswordPage /></Route>
        <Route path="/profile"><ProfilePage /></Route>
        <Route path="/checkout"><CheckoutPage /></Route>
        <Route path="/basket"><BasketPage /></Route>
        <Route path="/pay/:sessionId"><PayPage /></Route>
        <Route path="/gift/:token"><GiftClaimPage /></Route>
        <Route path="/newsletter/confirm"><NewsletterConfirmPage /></Route>
        <Route path="/free/:slug/confirm"><FreeBookConfirmPage /></Route>
        <Route path="/free/:slug"><FreeBookPage /></Route>
        <Route path="/review-copies/:slug"><ReviewCopiesPage /></Route>
        <Route path="/read/sample"><ReadingRoomPage /></Route>
        <Route path="/read/:bookId/:format"><ReadingRoomPage /></Route>
        <Route path="/listen/:bookId"><ReadingRoomPage /></Route>
        <Route path="/dashboard"><AdminRoutes /></Route>
        <Route path="/admin"><AdminRoutes /></Route>
        <Route path="/admin/*"><AdminRoutes /></Route>
        <Route path="*"><NotFoundPage /></Route>
      </Switch>
    </RootLayout>
  );
}
