import type { FastifyInstance } from 'fastify';
import { publicImageRoutes } from './admin/images-routes';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { loginLinkRoutes } from './auth/login-link-routes';
import { resetStatusRoutes } from './auth/reset-status-routes';
import { accountRoutes } from './auth/account-routes';
import { blogRoutes } from './blog/routes';
import { booksRoutes } from './books/routes';
import { adminBundlesRoutes, bundlesRoutes } from './bundles/routes';
import { catalogueRoutes } from './catalogue/routes';
import { checkoutRoutes } from './checkout/routes';
import { contactRoutes } from './contact/routes';
import { copiesRoutes } from './copies/routes';
import { dashboardRoutes } from './dashboard/routes';
import { adminDiscountsRoutes } from './discounts/admin-routes';
import { discountsRoutes } from './discounts/routes';
import { adminFeedRoutes, feedRoutes } from './feeds/routes';
import { giftsRoutes } from './gifts/routes';
import { adminFreeBooksRoutes, freeBooksRoutes } from './free-books/routes';
import { adminPreOrderRoutes, preOrderRoutes } from './pre-orders/routes';
import { healthRoutes } from './health/routes';
import { adminLibraryRoutes, libraryRoutes } from './library/routes';
import { openOwnedFile } from './library/service';
import { clickRoutes } from './newsletter/broadcast-clicks';
import { adminBroadcastRoutes } from './newsletter/broadcast-routes';
import { newsletterRoutes } from './newsletter/routes';
import { readingRoutes } from './reading/routes';
import { adminSyncMapRoutes, syncMapRoutes } from './reading/sync-map-routes';
import { adminReviewCopiesRoutes, reviewCopiesRoutes } from './review-copies/routes';
import { adminReviewsRoutes, reviewsRoutes } from './reviews/routes';
import { sharingRoutes } from './sharing/routes';
import { siteRoutes } from './site/routes';
import { adminShippingRoutes, shippingRoutes } from './shipping/routes';
import { adminTaxRoutes } from './tax/routes';

/**
 * Every feature's routes, registered in one place. Each feature is a Fastify plugin in
 * features/<domain>/routes.ts.
 */
export async function registerFeatures(app: FastifyInstance): Promise<void> {
  for (const routes of [
    healthRoutes,
    booksRoutes,
    catalogueRoutes,
    authRoutes,
    resetStatusRoutes,
    loginLinkRoutes,
    accountRoutes,
    checkoutRoutes,
    discountsRoutes,
    bundlesRoutes,
    libraryRoutes,
    giftsRoutes,
    freeBooksRoutes,
    preOrderRoutes,
    readingRoutes,
    syncMapRoutes,
    reviewsRoutes,
    reviewCopiesRoutes,
    feedRoutes,
    blogRoutes,
    contactRoutes,
    newsletterRoutes,
    clickRoutes,
    sharingRoutes,
    siteRoutes,
    dashboardRoutes,
    publicImageRoutes,
    shippingRoutes,
  ]) {
    await app.register(routes);
  }
  // Send to Kindle mails the library's copy of an e-book, and the library builds that copy with copies'
  // personal copies: the opener is handed in here so that neither feature imports the other.
  await app.register(copiesRoutes, { openOwnedFile });
  await app.register(adminRoutes, {
    more: [
      adminDiscountsRoutes,
      adminPreOrderRoutes,
      adminLibraryRoutes,
      adminBroadcastRoutes,
      adminReviewsRoutes,
      adminBundlesRoutes,
      adminSyncMapRoutes,
      adminTaxRoutes,
      adminShippingRoutes,
      adminFeedRoutes,
      adminFreeBooksRoutes,
      adminReviewCopiesRoutes,
    ],
  });
}
