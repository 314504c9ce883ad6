import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParam } from '@shared/schemas/common';
import { shippingCountriesSchema, shippingZoneInputSchema, shippingZoneSchema } from '@shared/schemas/shipping';
import { actorOf } from '../../platform/operations/audit';
import { createZone, deleteZone, listZones, shippingCountries, updateZone } from './service';

const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** Admin shipping zones (decision 0081), under /api/admin with the admin check of the admin routes. */
export const adminShippingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const now = () => app.deps.clock.now();

  app.get(
    '/api/admin/shipping-zones',
    { schema: { tags: ['admin'], summary: 'Shipping zones, by name', response: { 200: z.array(shippingZoneSchema), ...refusals } } },
    async () => listZones(db),
  );

  app.post(
    '/api/admin/shipping-zones',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a shipping zone: countries, first and further print copy prices, optional free-shipping threshold',
        body: shippingZoneInputSchema,
        response: { 201: shippingZoneSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request, reply) => reply.status(201).send(await createZone(db, request.body, actorOf(request), now())),
  );

  app.put(
    '/api/admin/shipping-zones/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a shipping zone',
        params: idParam,
        body: shippingZoneInputSchema,
        response: { 200: shippingZoneSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => updateZone(db, request.params.id, request.body, actorOf(request), now()),
  );

  app.delete(
    '/api/admin/shipping-zones/:id',
    { schema: { tags: ['admin'], summary: 'Delete a shipping zone', params: idParam, response: { 204: z.null(), 404: errorSchema, ...refusals } } },
    async (request, reply) => {
      await deleteZone(db, request.params.id, actorOf(request), now());
      return reply.status(204).send(null);
    },
  );
};

/** Where print ships, for the basket's country list. */
export const shippingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/shipping/countries',
    { schema: { tags: ['basket'], summary: 'The countries printed books ship to (empty: the author set no zones)', response: { 200: shippingCountriesSchema } } },
    async () => ({ countries: await shippingCountries(app.deps.database.db) }),
  );
};
