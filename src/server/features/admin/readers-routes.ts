import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  subscriberPageSchema,
  subscriberQuerySchema,
  userPageSchema,
  userQuerySchema,
  userExportQuerySchema,
  messageListSchema,
  messageQuerySchema,
  adminMessageSchema,
  readInputSchema,
} from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { untilClientGone } from '../../platform/operations/reports';
import { sendCsv } from './csv-export';
import {
  SUBSCRIBERS_CSV_HEADER,
  USERS_CSV_HEADER,
  exportSubscribers,
  exportUsers,
  listMessages,
  listSubscribers,
  listUsers,
} from './readers-service';
import { markMessageRead } from '../contact/service';

const refusals = { 401: errorSchema, 403: errorSchema };

/** The contact inbox, the newsletter list (with a CSV export) and the accounts with their roles. */
export const adminReadersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/messages',
    {
      schema: {
        tags: ['admin'],
        summary: 'Contact messages, newest first, a keyset page at a time (after=<nextCursor>), all or unread only',
        querystring: messageQuerySchema,
        response: { 200: messageListSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => app.deps.reports.run((reportDb) => listMessages(reportDb, request.query), untilClientGone(reply.raw)),
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
    {
      schema: {
        tags: ['admin'],
        summary: 'Newsletter subscribers, newest first, a keyset page at a time (after=<nextCursor>), with q to search',
        querystring: subscriberQuerySchema,
        response: { 200: subscriberPageSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => app.deps.reports.run((reportDb) => listSubscribers(reportDb, request.query), untilClientGone(reply.raw)),
  );

  app.get(
    '/api/admin/subscribers.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'Newsletter subscribers who have not left, with state and source, as CSV (safe to open in a spreadsheet)',
        produces: ['text/csv'],
        // Written as it is read (a stream), so the answer has no schema to serialize through.
        response: { ...refusals },
      },
    },
    async (request, reply) => {
      const now = clock.now();
      const batches = exportSubscribers(app.deps.reports, db, actorOf(request), now, untilClientGone(reply.raw));
      // The typed reply knows only the refusals' shapes; a stream is sent as it is.
      return sendCsv(reply as FastifyReply, 'thriller-circle-subscribers', now, SUBSCRIBERS_CSV_HEADER, batches);
    },
  );

  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Accounts, newest first, a keyset page at a time (after=<nextCursor>), with q to search',
        querystring: userQuerySchema,
        response: { 200: userPageSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => app.deps.reports.run((reportDb) => listUsers(reportDb, request.query), untilClientGone(reply.raw)),
  );

  app.get(
    '/api/admin/users/export.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'Accounts (those q finds, with q), oldest first, with role and purchases, as CSV (safe to open in a spreadsheet)',
        produces: ['text/csv'],
        querystring: userExportQuerySchema,
        // Written as it is read (a stream), so the answer has no schema to serialize through.
        response: { 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const now = clock.now();
      const batches = exportUsers(app.deps.reports, db, request.query.q, actorOf(request), now, untilClientGone(reply.raw));
      return sendCsv(reply as FastifyReply, 'thriller-circle-readers', now, USERS_CSV_HEADER, batches);
    },
  );
};
