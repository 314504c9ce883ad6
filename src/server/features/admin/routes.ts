import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema } from '@shared/schemas/admin';
import { errorSchema } from '@shared/schemas/common';
import { listAudit } from '../../platform/operations/audit';
import { adminBooksRoutes } from './books-routes';
import { adminFilesRoutes } from './files-routes';
import { adminImagesRoutes } from './images-routes';
import { adminOrdersRoutes } from './orders-routes';
import { adminPostsRoutes } from './posts-routes';
import { adminReadersRoutes } from './readers-routes';
import { adminSettingsRoutes } from './settings-routes';
import { adminSystemRoutes } from './system-routes';
import { adminTaxReportCsvRoutes } from './tax-report-routes';

/**
 * Routes of the admin domain, all under /api/admin. The admin check runs on every one of them at
 * onRequest (after the session is resolved, before the body is read): 401 signed out, 403 for a user.
 * Other features' admin routes (`more`, composed by features/index.ts) get the same check and cache rule.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ more?: FastifyPluginAsync[] }> = async (app, { more = [] }) => {
  app.addHook('onRequest', app.requireAdmin);
  // Any successful admin change may touch what the public reads (books, prices, posts, site content, files):
  // the public cache is cleared here and, through the cache bus, on every other instance. Clearing before the
  // answer leaves means the admin's next read already sees the change. Admin changes are rare and a refill
  // costs a few queries, so the whole cache goes rather than risk missing one dependent entry.
  app.addHook('onSend', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) app.deps.cache.clear();
  });

  app.get(
    '/api/admin/audit',
    { schema: { tags: ['admin'], summary: 'The latest admin changes', response: { 200: z.array(auditEntrySchema), 401: errorSchema, 403: errorSchema } } },
    async () => listAudit(app.deps.database.db),
  );

  await app.register(adminBooksRoutes);
  await app.register(adminPostsRoutes);
  await app.register(adminFilesRoutes);
  await app.register(adminImagesRoutes);
  await app.register(adminOrdersRoutes);
  await app.register(adminReadersRoutes);
  await app.register(adminSettingsRoutes);
  await app.register(adminSystemRoutes);
  await app.register(adminTaxReportCsvRoutes);
  for (const routes of more) await app.register(routes);
};
