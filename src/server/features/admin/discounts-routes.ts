import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { discountInputSchema, discountListSchema, discountSchema } from '@shared/schemas/discounts';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf, audit } from '../../platform/audit';
import { createDiscount, listDiscounts, updateDiscount } from '../checkout/service';

const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** Discount codes (issue 15): list, create, edit. Codes are never deleted: checkouts refer to them. */
export const adminDiscountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/discounts',
    { schema: { tags: ['admin'], summary: 'Discount codes, by code', response: { 200: discountListSchema, ...refusals } } },
    async () => listDiscounts(db),
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
    async (request, reply) => {
      const now = clock.now();
      const created = await db.transaction(async (tx) => {
        const row = await createDiscount(tx, request.body, now);
        await audit(tx, actorOf(request), { action: 'discount.create', targetType: 'discount', targetId: row.id, details: { code: row.code } }, now);
        return row;
      });
      return reply.status(201).send(created);
    },
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
    async (request) => {
      const now = clock.now();
      const row = await updateDiscount(db, request.params.id, request.body, now);
      await audit(db, actorOf(request), { action: 'discount.update', targetType: 'discount', targetId: row.id, details: { code: row.code, active: row.active } }, now);
      return row;
    },
  );
};
