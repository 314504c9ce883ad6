/**
 * The author's routes (the dashboard and the admin area), in a chunk of their own: the public pages' boot code carries one lazy import for
 * the whole area instead of one per admin page with each page's list of files to preload (which every
 * reader downloaded on the home page), and the route guards with them. Paths are absolute, as in router.tsx; an unknown /admin path is the
 * not-found page (the server answers it with 404).
 */
import { lazy } from 'react';
import type { ReactNode } from 'react';
import { Route, Switch } from '@client/lib/router';
import NotFoundPage from '@client/pages/not-found';
import { AdminGuard, ProtectedRoute } from './route-guards';

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
const AdminNewsletterPage = lazy(() => import('@client/pages/admin-newsletter'));
const AdminBroadcastEditorPage = lazy(() => import('@client/pages/admin-broadcast-editor'));
const AdminUsersPage = lazy(() => import('@client/pages/admin-users'));
const AdminSystemPage = lazy(() => import('@client/pages/admin-system'));
const AdminSettingsPage = lazy(() => import('@client/pages/admin-settings'));
const AdminReviewsPage = lazy(() => import('@client/pages/admin-reviews'));
const AdminTaxPage = lazy(() => import('@client/pages/admin-tax'));
const AdminShippingPage = lazy(() => import('@client/pages/admin-shipping'));
const AdminBundlesPage = lazy(() => import('@client/pages/admin-bundles'));
const AdminReviewCopiesPage = lazy(() => import('@client/pages/admin-review-copies'));
const AdminFreeBookPage = lazy(() => import('@client/pages/admin-free-book'));

const protect = (page: ReactNode) => <ProtectedRoute>{page}</ProtectedRoute>;
const admin = (page: ReactNode) => <AdminGuard>{page}</AdminGuard>;

export default function AdminRoutes() {
  return (
    <Switch>
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
      <Route path="/admin/reviews">{admin(<AdminReviewsPage />)}</Route>
      <Route path="/admin/newsletter">{admin(<AdminNewsletterPage />)}</Route>
      <Route path="/admin/newsletter/new">{admin(<AdminBroadcastEditorPage mode="create" />)}</Route>
      <Route path="/admin/newsletter/:id">{admin(<AdminBroadcastEditorPage mode="edit" />)}</Route>
      <Route path="/admin/subscribers">{admin(<AdminSubscribersPage />)}</Route>
      <Route path="/admin/users">{admin(<AdminUsersPage />)}</Route>
      <Route path="/admin/settings">{admin(<AdminSettingsPage />)}</Route>
      <Route path="/admin/tax">{admin(<AdminTaxPage />)}</Route>
      <Route path="/admin/shipping">{admin(<AdminShippingPage />)}</Route>
      <Route path="/admin/bundles">{admin(<AdminBundlesPage />)}</Route>
      <Route path="/admin/review-copies">{admin(<AdminReviewCopiesPage />)}</Route>
      <Route path="/admin/free-book">{admin(<AdminFreeBookPage />)}</Route>
      <Route path="/admin/system">{admin(<AdminSystemPage />)}</Route>
      <Route path="*"><NotFoundPage /></Route>
    </Switch>
  );
}
