import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema } from '@shared/schemas/admin';
import { errorSchema } from '@shared/schemas/common';
import { listAudit } from './audit';
import { adminBooksRoutes } from './books-routes';
import { adminFilesRoutes } from './files-routes';
import { adminOrdersRoutes } from './orders-routes';
import { adminPostsRoutes } from './posts-routes';
import { adminReadersRoutes } from './readers-routes';
import { adminSettingsRoutes } from './settings-routes';

/**
 * Routes of the admin domain, all under /api/admin. The admin check runs on every one of them at
 * onRequest (after the session is resolved, before the body is read): 401 signed out, 403 for a user.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.requireAdmin);
  // Any successful admin change may touch what every page reads: this instance shows it at once
  // (others within SITE_CACHE_MS). Cleared before the answer leaves, so a page the admin opens next
  // (or anyone after them) is never the one from before the change; and again once it has left, for a
  // page that was being built from the old data meanwhile.
  const clearAfterChange = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) app.deps.cache.clear();
  };
  app.addHook('onSend', clearAfterChange);
  app.addHook('onResponse', clearAfterChange);

  app.get(
    '/api/admin/audit',
    { schema: { tags: ['admin'], summary: 'The latest admin changes', response: { 200: z.array(auditEntrySchema), 401: errorSchema, 403: errorSchema } } },
    async () => listAudit(app.deps.database.db),
  );

  await app.register(adminBooksRoutes);
  await app.register(adminPostsRoutes);
  await app.register(adminFilesRoutes);
  await app.register(adminOrdersRoutes);
  await app.register(adminReadersRoutes);
  await app.register(adminSettingsRoutes);
};
