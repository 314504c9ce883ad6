import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminOrderSchema, orderExportQuerySchema, orderPageSchema, orderQuerySchema, refundOrderSchema, shipOrderSchema } from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { untilClientGone } from '../../platform/operations/reports';
import { listOrders, orderAfterChange } from './orders-service';
import { refundOrder, shipOrder } from '../checkout/service';
import { resetDownloadAllowance } from '../library/service';
import { sendCsv } from './csv-export';
import { ORDERS_CSV_HEADER, exportOrders } from './orders-export';

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

  app.get(
    '/api/admin/orders/export.csv',
    {
      schema: {
        tags: ['admin'],
        summary: "Orders (with the list's status, format and q), oldest first, as CSV (safe to open in a spreadsheet)",
        produces: ['text/csv'],
        querystring: orderExportQuerySchema,
        // Written as it is read (a stream), so the answer has no schema to serialize through.
        response: { 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const now = clock.now();
      const batches = exportOrders(app.deps.reports, db, request.query, actorOf(request), now, untilClientGone(reply.raw));
      // The typed reply knows only the refusals' shapes; a stream is sent as it is.
      return sendCsv(reply as FastifyReply, 'thriller-circle-orders', now, ORDERS_CSV_HEADER, batches);
    },
  );

  app.post(
    '/api/admin/orders/:id/ship',
    {
      // A request without a body ships without tracking, as this route did before tracking existed.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
      schema: {
        tags: ['admin'],
        summary: 'Mark a physical order shipped, with its carrier and tracking number (the buyer is told by mail)',
        params: idParam,
        body: shipOrderSchema,
        response: { 200: adminOrderSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => {
      await shipOrder(db, mailer, request.params.id, request.body, actorOf(request), clock.now());
      return orderAfterChange(db, request.params.id);
    },
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
    async (request) => {
      await resetDownloadAllowance(db, request.params.id, actorOf(request), clock.now());
      return orderAfterChange(db, request.params.id);
    },
  );

  app.post(
    '/api/admin/orders/:id/refund',
    {
      // A request without a body refunds the row whole, as this route did before partial refunds.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
      schema: {
        tags: ['admin'],
        summary:
          'Refund a purchase whole, another line of its basket order (lineId) or an amount of either (Stripe: refunds.create); a whole refund takes what it paid for along; a second whole refund is 409',
        params: idParam,
        body: refundOrderSchema,
        response: { 200: adminOrderSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, 502: errorSchema, ...refusals },
      },
    },
    async (request) => {
      await refundOrder(app.deps, actorOf(request), request.params.id, request.body);
      return orderAfterChange(db, request.params.id);
    },
  );
};
