import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, inArray } from 'drizzle-orm';
import { DEFAULT_MAX_DOWNLOADS, DIGITAL_FORMATS, PHYSICAL_FORMATS, isDigitalFormat } from '@shared/constants';
import { adminOrderSchema, orderPageSchema, orderQuerySchema } from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { books, purchases, users } from '../../db/schema';
import { conflict, notFound } from '../../platform/errors';
import { actorOf, audit } from '../../platform/audit';
import { getOrder, listOrders } from './orders-service';
import { refundOrder } from '../checkout/service';

const refusals = { 401: errorSchema, 403: errorSchema };
const FORMAT_LABEL: Record<string, string> = { hardcover: 'Hardcover', paperback: 'Paperback' };

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
    async (request) => listOrders(db, request.query),
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
    async (request) => {
      const now = clock.now();
      const id = request.params.id;
      await db.transaction(async (tx) => {
        // One conditional statement: shipping twice, or shipping a download, changes nothing.
        const [row] = await tx
          .update(purchases)
          .set({ status: 'shipped', shippedAt: now })
          .where(
            and(eq(purchases.id, id), eq(purchases.status, 'completed'), inArray(purchases.format, [...PHYSICAL_FORMATS])),
          )
          .returning({ id: purchases.id, userId: purchases.userId, bookId: purchases.bookId, format: purchases.format, orderReference: purchases.orderReference });
        if (!row) {
          const [exists] = await tx.select({ format: purchases.format, status: purchases.status }).from(purchases).where(eq(purchases.id, id));
          if (!exists) throw notFound('Order not found');
          if (isDigitalFormat(exists.format)) throw conflict('Digital orders are not shipped');
          throw conflict(exists.status === 'shipped' ? 'This order has already been shipped' : `A ${exists.status} order cannot be shipped`);
        }
        const [buyer] = await tx
          .select({ email: users.email, name: users.displayName, username: users.username, title: books.title })
          .from(users)
          .innerJoin(books, eq(books.id, row.bookId))
          .where(eq(users.id, row.userId));
        const format = FORMAT_LABEL[row.format] ?? row.format;
        await mailer.enqueue(
          {
            to: buyer.email,
            subject: `Your ${format.toLowerCase()} of ${buyer.title} is on its way`,
            text: [
              `Hello ${buyer.name || buyer.username},`,
              '',
              `Good news: your ${format.toLowerCase()} copy of ${buyer.title} (order ${row.orderReference}) has been dispatched today.`,
              '',
              'Thank you for reading.',
            ].join('\n'),
            kind: 'order-shipped',
          },
          tx,
        );
        await audit(tx, actorOf(request), { action: 'order.ship', targetType: 'purchase', targetId: id, details: { orderReference: row.orderReference } }, now);
      });
      return (await getOrder(db, id))!;
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
      const now = clock.now();
      const id = request.params.id;
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ format: purchases.format, status: purchases.status, downloadCount: purchases.downloadCount, maxDownloads: purchases.maxDownloads, userId: purchases.userId })
          .from(purchases)
          .where(eq(purchases.id, id))
          .for('update');
        if (!before) throw notFound('Order not found');
        if (!(DIGITAL_FORMATS as readonly string[]).includes(before.format)) throw conflict('Only digital orders have a download allowance');
        if (before.status !== 'completed') throw conflict(`A ${before.status} order cannot be downloaded`);
        await tx
          .update(purchases)
          .set({ downloadCount: 0, downloadUsed: false, maxDownloads: Math.max(before.maxDownloads, DEFAULT_MAX_DOWNLOADS) })
          .where(eq(purchases.id, id));
        await audit(
          tx,
          actorOf(request),
          {
            action: 'order.reset-download',
            targetType: 'purchase',
            targetId: id,
            details: { buyerId: before.userId, format: before.format, previousDownloadCount: before.downloadCount },
          },
          now,
        );
      });
      return (await getOrder(db, id))!;
    },
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
