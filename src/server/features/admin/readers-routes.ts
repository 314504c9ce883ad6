import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminSubscriberSchema,
  adminUserSchema,
  messageListSchema,
  messageQuerySchema,
  adminMessageSchema,
  readInputSchema,
} from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/audit';
import { untilClientGone } from '../../platform/reports';
import { toCsv } from './csv';
import { exportSubscribers, listMessages, listSubscribers, listUsers, markMessageRead } from './readers-service';

const refusals = { 401: errorSchema, 403: errorSchema };

/** The contact inbox, the newsletter list (with a CSV export) and the accounts with their roles. */
export const adminReadersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/messages',
    { schema: { tags: ['admin'], querystring: messageQuerySchema, response: { 200: messageListSchema, ...refusals } } },
    async (request, reply) => app.deps.reports.run((reportDb) => listMessages(reportDb, request.query.filter), untilClientGone(reply.raw)),
  );

  app.post(
    '/api/admin/messages/:id/read',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a message read or unread',
        params: idParam,
        body: readInputSchema,
        response: { 200: adminMessageSchema, 404: errorSchema, ...refusals },
      },
    },
    async (request) => markMessageRead(db, request.params.id, request.body.read, actorOf(request), clock.now()),
  );

  app.get(
    '/api/admin/subscribers',
    { schema: { tags: ['admin'], response: { 200: z.array(adminSubscriberSchema), ...refusals } } },
    async () => listSubscribers(db),
  );

  app.get(
    '/api/admin/subscribers.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'Newsletter subscribers who have not left, with state and source, as CSV (safe to open in a spreadsheet)',
        produces: ['text/csv'],
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const now = clock.now();
      const rows = await exportSubscribers(db, actorOf(request), now);
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="thriller-circle-subscribers-${now.toISOString().slice(0, 10)}.csv"`)
        .header('Cache-Control', 'no-store');
      return toCsv(
        ['email', 'name', 'subscribed_at', 'state', 'source'],
        rows.map((r) => [r.email, r.name, r.subscribedAt, r.state, r.source]),
      );
    },
  );

  app.get(
    '/api/admin/users',
    { schema: { tags: ['admin'], response: { 200: z.array(adminUserSchema), ...refusals } } },
    async (_request, reply) => app.deps.reports.run((reportDb) => listUsers(reportDb), untilClientGone(reply.raw)),
  );
};
