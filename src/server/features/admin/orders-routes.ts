import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminOrderSchema, orderPageSchema, orderQuerySchema } from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/audit';
import { untilClientGone } from '../../platform/reports';
import { getOrder, listOrders, resetDownloadAllowance, shipOrder } from './orders-service';
import { refundOrder } from '../checkout/service';

const refusals = { 401: errorSchema, 403: errorSchema };

/** Orders: every purchase, shipping physical copies, and the download-allowance reset. */
export const adminOrdersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock, mailer } = app.deps;

  app.get(
    '/api/admin/orders',
    {
      schema: {
        tags: ['admin'],
        summary: 'Purchases, newest first, 50 a page',
        querystring: orderQuerySchema,
        response: { 200: orderPageSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => app.deps.reports.run((reportDb) => listOrders(reportDb, request.query), untilClientGone(reply.raw)),
  );

  app.post(
    '/api/admin/orders/:id/ship',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a physical order shipped (the buyer is told by mail)',
        params: idParam,
        response: { 200: adminOrderSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => shipOrder(db, mailer, request.params.id, actorOf(request), clock.now()),
  );

  app.post(
    '/api/admin/orders/:id/reset-download',
    {
      schema: {
        tags: ['admin'],
        summary: "Give the buyer their download allowance for this format back",
        params: idParam,
        response: { 200: adminOrderSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => resetDownloadAllowance(db, request.params.id, actorOf(request), clock.now()),
  );

  app.post(
    '/api/admin/orders/:id/refund',
    {
      schema: {
        tags: ['admin'],
        summary: 'Refund a purchase (Stripe: refunds.create); what it paid for goes with it; a second refund is 409',
        params: idParam,
        response: { 200: adminOrderSchema, 404: errorSchema, 409: errorSchema, 502: errorSchema, ...refusals },
      },
    },
    async (request) => {
      await refundOrder(app.deps, actorOf(request), request.params.id);
      return (await getOrder(db, request.params.id))!;
    },
  );
};
