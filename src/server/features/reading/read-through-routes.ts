import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { bookIdParams } from '@shared/schemas/library';
import { readThroughConsentSchema, readThroughSchema } from '@shared/schemas/read-through';
import { notFound } from '../../platform/http/errors';
import { getBook } from '../books/service';
import { readThroughConsent, readThroughOf, setReadThroughConsent } from './read-through';
import { requireUser } from '../../platform/security/sessions';

/** The reader's side of read-through (decision 0089): whether they are counted, set in Account Details. */
export const readThroughConsentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema };
  app.get(
    '/api/reading/read-through',
    {
      preHandler: app.requireUser,
      schema: { tags: ['reading'], summary: "Whether the caller's reading is counted in the author's read-through chart", response: { 200: readThroughConsentSchema, ...errors } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return { counted: await readThroughConsent(db, requireUser(request).userId) };
    },
  );
  app.put(
    '/api/reading/read-through',
    {
      preHandler: app.requireUser,
      schema: { tags: ['reading'], summary: "Count the caller's reading in the read-through chart, or not", body: readThroughConsentSchema, response: { 200: readThroughConsentSchema, ...errors } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { counted: await setReadThroughConsent(db, requireUser(request).userId, request.body.counted) };
    },
  );
};

/** The author's side: the chart of one book, aggregated, with small buckets withheld. */
export const adminReadThroughRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/admin/books/:bookId/read-through',
    {
      schema: {
        tags: ['admin'],
        summary: 'How far owners got in each format: the share who reached each chapter (buckets under 5 readers hidden)',
        params: bookIdParams,
        response: { 200: readThroughSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      if (!(await getBook(db, request.params.bookId))) throw notFound('Book not found');
      reply.header('Cache-Control', 'no-store');
      return readThroughOf(app.deps, request.params.bookId);
    },
  );
};
