import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { discountInputSchema, discountPageSchema, discountQuerySchema, discountSchema } from '@shared/schemas/discounts';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { createDiscount, listDiscounts, updateDiscount } from './service';

const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** Discount codes (issue 15): list, create, edit. Codes are never deleted: checkouts refer to them. */
export const adminDiscountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/discounts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Discount codes, by code, a keyset page at a time (after=<nextCursor>)',
        querystring: discountQuerySchema,
        response: { 200: discountPageSchema, ...refusals },
      },
    },
    async (request) => listDiscounts(db, request.query),
  );

  app.post(
    '/api/admin/discounts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a discount code (percentOff 1-100 or amountOff in pence)',
        body: discountInputSchema,
        response: { 201: discountSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request, reply) => reply.status(201).send(await createDiscount(db, request.body, actorOf(request), clock.now())),
  );

  app.put(
    '/api/admin/discounts/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a discount code',
        params: idParam,
        body: discountInputSchema,
        response: { 200: discountSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => updateDiscount(db, request.params.id, request.body, actorOf(request), clock.now()),
  );
};
