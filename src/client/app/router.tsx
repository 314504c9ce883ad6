/**
 * Every route of SPEC 2. Pages are lazy chunks so the home bundle carries no account, checkout,
 * dashboard or admin code; the guards are tiny and live in the main chunk.
 */
import { lazy } from 'react';
import type { ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { RootLayout } from './layouts/root-layout';
import { AdminGuard, ProtectedRoute } from './route-guards';

const HomePage = lazy(() => import('@client/pages/home'));
const BlogListPage = lazy(() => import('@client/pages/blog-list'));
const BlogPostPage = lazy(() => import('@client/pages/blog-post'));
const LoginPage = lazy(() => import('@client/pages/login'));
const ForgotPasswordPage = lazy(() => import('@client/pages/forgot-password'));
const ResetPasswordPage = lazy(() => import('@client/pages/reset-password'));
const ProfilePage = lazy(() => import('@client/pages/profile'));
const CheckoutPage = lazy(() => import('@client/pages/checkout'));
const PayPage = lazy(() => import('@client/pages/pay'));
const DashboardPage = lazy(() => import('@client/pages/dashboard'));
const AdminPage = lazy(() => import('@client/pages/admin'));
const AdminBookFormPage = lazy(() => import('@client/pages/admin-book-form'));
const AdminPostsPage = lazy(() => import('@client/pages/admin-posts'));
const AdminPostEditorPage = lazy(() => import('@client/pages/admin-post-editor'));
const AdminFilesPage = lazy(() => import('@client/pages/admin-files'));
const AdminOrdersPage = lazy(() => import('@client/pages/admin-orders'));
const AdminMessagesPage = lazy(() => import('@client/pages/admin-messages'));
const AdminSubscribersPage = lazy(() => import('@client/pages/admin-subscribers'));
const AdminUsersPage = lazy(() => import('@client/pages/admin-users'));
const AdminSettingsPage = lazy(() => import('@client/pages/admin-settings'));
const NotFoundPage = lazy(() => import('@client/pages/not-found'));

const protect = (page: ReactNode) => <ProtectedRoute>{page}</ProtectedRoute>;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/blog', element: <BlogListPage /> },
      { path: '/blog/:id', element: <BlogPostPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/profile', element: <ProfilePage /> },
      { path: '/checkout', element: <CheckoutPage /> },
      { path: '/pay/:sessionId', element: <PayPage /> },
      { path: '/dashboard', element: protect(<DashboardPage />) },
      { path: '/admin', element: <AdminGuard><AdminPage /></AdminGuard> },
      { path: '/admin/books/create', element: protect(<AdminBookFormPage mode="create" />) },
      { path: '/admin/books/edit/:id', element: protect(<AdminBookFormPage mode="edit" />) },
      { path: '/admin/posts', element: <AdminGuard><AdminPostsPage /></AdminGuard> },
      { path: '/admin/posts/new', element: <AdminGuard><AdminPostEditorPage mode="create" /></AdminGuard> },
      { path: '/admin/posts/:id/edit', element: <AdminGuard><AdminPostEditorPage mode="edit" /></AdminGuard> },
      { path: '/admin/files', element: <AdminGuard><AdminFilesPage /></AdminGuard> },
      { path: '/admin/orders', element: <AdminGuard><AdminOrdersPage /></AdminGuard> },
      { path: '/admin/messages', element: <AdminGuard><AdminMessagesPage /></AdminGuard> },
      { path: '/admin/subscribers', element: <AdminGuard><AdminSubscribersPage /></AdminGuard> },
      { path: '/admin/users', element: <AdminGuard><AdminUsersPage /></AdminGuard> },
      { path: '/admin/settings', element: <AdminGuard><AdminSettingsPage /></AdminGuard> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
