/**
 * Every route of SPEC 2. Pages are lazy chunks so the home bundle carries no account, checkout,
 * dashboard or admin code; the guards are tiny and live in the main chunk. The first route that
 * matches wins (wouter's Switch); the last one catches everything else with the not-found page.
 */
import { lazy } from 'react';
import type { ReactNode } from 'react';
import { Route, Switch } from '@client/lib/router';
import { preloadable } from '@client/lib/preloadable';
import { ADMIN_PAGE_PATHS } from '@shared/app-paths';
import { RootLayout } from './layouts/root-layout';
import { AdminGuard, ProtectedRoute } from './route-guards';

// The server-rendered pages: preloaded before the server renders them and before the browser hydrates.
// Reached by an in-app link, the home page waits for its sections too, so it appears whole and a link to
// one of its sections lands where the section stays.
const HomePage = preloadable(
  () => import('@client/pages/home'),
  () => import('@client/pages/home-sections/lazy-sections').then((m) => m.preloadSections()),
);
const BlogListPage = preloadable(() => import('@client/pages/blog-list'));
const BlogPostPage = preloadable(() => import('@client/pages/blog-post'));
const LoginPage = lazy(() => import('@client/pages/login'));
const ForgotPasswordPage = lazy(() => import('@client/pages/forgot-password'));
const ResetPasswordPage = lazy(() => import('@client/pages/reset-password'));
const ProfilePage = lazy(() => import('@client/pages/profile'));
const CheckoutPage = lazy(() => import('@client/pages/checkout'));
const GiftClaimPage = lazy(() => import('@client/pages/gift-claim'));
const NewsletterConfirmPage = lazy(() => import('@client/pages/newsletter-confirm'));
const PayPage = lazy(() => import('@client/pages/pay'));
const DashboardPage = lazy(() => import('@client/pages/dashboard'));
const AdminPage = lazy(() => import('@client/pages/admin'));
const AdminBookFormPage = lazy(() => import('@client/pages/admin-book-form'));
const AdminPostsPage = lazy(() => import('@client/pages/admin-posts'));
const AdminPostEditorPage = lazy(() => import('@client/pages/admin-post-editor'));
const AdminFilesPage = lazy(() => import('@client/pages/admin-files'));
const AdminOrdersPage = lazy(() => import('@client/pages/admin-orders'));
const AdminDiscountsPage = lazy(() => import('@client/pages/admin-discounts'));
const AdminTracePage = lazy(() => import('@client/pages/admin-trace'));
const AdminMessagesPage = lazy(() => import('@client/pages/admin-messages'));
const AdminSubscribersPage = lazy(() => import('@client/pages/admin-subscribers'));
const AdminUsersPage = lazy(() => import('@client/pages/admin-users'));
const AdminSystemPage = lazy(() => import('@client/pages/admin-system'));
const AdminSettingsPage = lazy(() => import('@client/pages/admin-settings'));
// The reading room: the EPUB, PDF and audio code load only on these routes.
const ReadingRoomPage = lazy(() => import('@client/pages/reading-room'));
const NotFoundPage = preloadable(() => import('@client/pages/not-found'));

/** Every page the server renders, for the server to load before its first render. */
export const SERVER_RENDERED_PAGES = [HomePage, BlogListPage, BlogPostPage, NotFoundPage];

const KNOWN_PATHS = [
  /^\/(login|forgot-password|reset-password|profile|checkout|dashboard)\/?$/i,
  ...ADMIN_PAGE_PATHS,
  /^\/pay\/[^/]+\/?$/i,
  /^\/gift\/[^/]+\/?$/i,
  /^\/newsletter\/confirm\/?$/i,
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
  if (KNOWN_PATHS.some((r) => r.test(pathname))) return Promise.resolve();
  return NotFoundPage.preload();
}

const protect = (page: ReactNode) => <ProtectedRoute>{page}</ProtectedRoute>;
const admin = (page: ReactNode) => <AdminGuard>{page}</AdminGuard>;

export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path="/"><HomePage /></Route>
        <Route path="/blog"><BlogListPage /></Route>
        <Route path="/blog/page/:page"><BlogListPage /></Route>
        <Route path="/blog/:id"><BlogPostPage /></Route>
        <Route path="/login"><LoginPage /></Route>
        <Route path="/forgot-password"><ForgotPasswordPage /></Route>
        <Route path="/reset-password"><ResetPasswordPage /></Route>
        <Route path="/profile"><ProfilePage /></Route>
        <Route path="/checkout"><CheckoutPage /></Route>
        <Route path="/pay/:sessionId"><PayPage /></Route>
        <Route path="/gift/:token"><GiftClaimPage /></Route>
        <Route path="/newsletter/confirm"><NewsletterConfirmPage /></Route>
        <Route path="/read/sample"><ReadingRoomPage /></Route>
        <Route path="/read/:bookId/:format"><ReadingRoomPage /></Route>
        <Route path="/listen/:bookId"><ReadingRoomPage /></Route>
        <Route path="/dashboard">{protect(<DashboardPage />)}</Route>
        <Route path="/admin">{admin(<AdminPage />)}</Route>
        <Route path="/admin/books/create">{protect(<AdminBookFormPage mode="create" />)}</Route>
        <Route path="/admin/books/edit/:id">{protect(<AdminBookFormPage mode="edit" />)}</Route>
        <Route path="/admin/posts">{admin(<AdminPostsPage />)}</Route>
        <Route path="/admin/posts/new">{admin(<AdminPostEditorPage mode="create" />)}</Route>
        <Route path="/admin/posts/:id/edit">{admin(<AdminPostEditorPage mode="edit" />)}</Route>
        <Route path="/admin/files">{admin(<AdminFilesPage />)}</Route>
        <Route path="/admin/orders">{admin(<AdminOrdersPage />)}</Route>
        <Route path="/admin/discounts">{admin(<AdminDiscountsPage />)}</Route>
        <Route path="/admin/trace">{admin(<AdminTracePage />)}</Route>
        <Route path="/admin/messages">{admin(<AdminMessagesPage />)}</Route>
        <Route path="/admin/subscribers">{admin(<AdminSubscribersPage />)}</Route>
        <Route path="/admin/users">{admin(<AdminUsersPage />)}</Route>
        <Route path="/admin/settings">{admin(<AdminSettingsPage />)}</Route>
        <Route path="/admin/system">{admin(<AdminSystemPage />)}</Route>
        <Route path="*"><NotFoundPage /></Route>
      </Switch>
    </RootLayout>
  );
}
