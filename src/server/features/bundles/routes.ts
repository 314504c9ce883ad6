import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminBundleListSchema, adminBundleSchema, bundleInputSchema, bundleListSchema } from '@shared/schemas/bundles';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { createBundle, listAdminBundles, listBundles, updateBundle } from './service';

/** GET /api/bundles: every active bundle, priced for the caller ("Complete your set" when signed in). */
export const bundlesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/bundles',
    { schema: { tags: ['books'], summary: "Active bundles, each with the caller's price (less what they paid for parts they own)", response: { 200: bundleListSchema } } },
    async (request, reply) => {
      // The answer depends on who asks, so no shared cache keeps it.
      reply.header('Cache-Control', 'private, no-store');
      return { bundles: await listBundles(db, request.auth?.userId ?? null) };
    },
  );
};

const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** Admin "Bundles": list, create, change (a bundle is switched off, never deleted: orders name it). */
export const adminBundlesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;
  app.get(
    '/api/admin/bundles',
    { schema: { tags: ['admin'], summary: 'Every bundle, active or not', response: { 200: adminBundleListSchema, ...refusals } } },
    async () => listAdminBundles(db),
  );
  app.post(
    '/api/admin/bundles',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a bundle: a name, the formats of one or more books, a price in pence, active',
        body: bundleInputSchema,
        response: { 201: adminBundleSchema, ...refusals },
      },
    },
    async (request, reply) => reply.status(201).send(await createBundle(db, request.body, actorOf(request), clock.now())),
  );
  app.put(
    '/api/admin/bundles/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a bundle',
        params: idParam,
        body: bundleInputSchema,
        response: { 200: adminBundleSchema, 404: errorSchema, ...refusals },
      },
    },
    async (request) => updateBundle(db, request.params.id, request.body, actorOf(request), clock.now()),
  );
};
