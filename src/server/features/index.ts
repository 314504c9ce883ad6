import type { FastifyInstance } from 'fastify';
import { publicImageRoutes } from './admin/images-routes';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { resetStatusRoutes } from './auth/reset-status-routes';
import { blogRoutes } from './blog/routes';
import { booksRoutes } from './books/routes';
import { checkoutRoutes } from './checkout/routes';
import { contactRoutes } from './contact/routes';
import { copiesRoutes } from './copies/routes';
import { dashboardRoutes } from './dashboard/routes';
import { giftsRoutes } from './gifts/routes';
import { adminPreOrderRoutes, preOrderRoutes } from './pre-orders/routes';
import { healthRoutes } from './health/routes';
import { adminLibraryRoutes, libraryRoutes } from './library/routes';
import { newsletterRoutes } from './newsletter/routes';
import { readingRoutes } from './reading/routes';
import { sharingRoutes } from './sharing/routes';
import { siteRoutes } from './site/routes';
import { usersRoutes } from './users/routes';

/**
 * Every feature's routes, registered in one place. Each feature is a Fastify plugin in
 * features/<domain>/routes.ts.
 */
export async function registerFeatures(app: FastifyInstance): Promise<void> {
  for (const routes of [
    healthRoutes,
    booksRoutes,
    authRoutes,
    resetStatusRoutes,
    usersRoutes,
    checkoutRoutes,
    libraryRoutes,
    giftsRoutes,
    preOrderRoutes,
    copiesRoutes,
    readingRoutes,
    blogRoutes,
    contactRoutes,
    newsletterRoutes,
    sharingRoutes,
    siteRoutes,
    dashboardRoutes,
    publicImageRoutes,
  ]) {
    await app.register(routes);
  }
  await app.register(adminRoutes, { more: [adminPreOrderRoutes, adminLibraryRoutes] });
}
