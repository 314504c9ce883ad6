import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { bookIdParams } from '@shared/schemas/library';
import { adminSyncMapSchema, syncMapAnswerSchema, syncMapCorrectionSchema } from '@shared/schemas/sync-map';
import { actorOf } from '../../platform/operations/audit';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { getBook } from '../books/service';
import { findOwnedPurchase } from '../library/service';
import { assertReleased } from '../pre-orders/service';
import { adminReadThroughRoutes, readThroughConsentRoutes } from './read-through-routes';
import { adminSyncMapOf, correctSyncMap, resetSyncMap, syncMapOf } from './sync-map';
import { requireUser } from '../../platform/security/sessions';

const BOTH_FILES_MESSAGE = 'This book does not have both an e-book and an audiobook yet.';
export const NOT_BOTH_MESSAGE = 'You need both the e-book and the audiobook of this book to switch between them.';

/** The reader's side of read <-> listen: the pairing, for the owner of both formats (decision 0088). */
export const syncMapRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  // Read-through (decision 0089) rides on the same reading positions; registered with them.
  await app.register(readThroughConsentRoutes);
  app.get(
    '/api/library/:bookId/sync-map',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reading'],
        summary: "How the book's e-book chapters pair with its audiobook chapters, for the owner of both",
        params: bookIdParams,
        response: { 200: syncMapAnswerSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const { bookId } = request.params;
      const { userId, role } = requireUser(request);
      const [ebook, audiobook] = await Promise.all([
        findOwnedPurchase(db, userId, bookId, 'ebook'),
        findOwnedPurchase(db, userId, bookId, 'audiobook'),
      ]);
      // The author reads and listens to their own book's masters, so may switch between them too.
      const author = role === 'admin' && (await getBook(db, bookId)) !== null;
      if (!(ebook && audiobook) && !author) throw forbidden(NOT_BOTH_MESSAGE);
      if (!author) await assertReleased(db, bookId, app.deps.clock.now());
      const map = await syncMapOf(app.deps, bookId);
      if (!map) throw notFound(BOTH_FILES_MESSAGE);
      reply.header('Cache-Control', 'private, no-store');
      return map;
    },
  );
};

/** The author's side: see the pairing with both chapter lists, correct it, or go back to the automatic one. */
export const adminSyncMapRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  await app.register(adminReadThroughRoutes);
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
  const knownBook = async (bookId: number) => {
    if (!(await getBook(db, bookId))) throw notFound('Book not found');
  };

  app.get(
    '/api/admin/books/:bookId/sync-map',
    { schema: { tags: ['admin'], summary: "The book's read <-> listen pairing and both chapter lists", params: bookIdParams, response: { 200: adminSyncMapSchema, ...errors } } },
    async (request) => {
      await knownBook(request.params.bookId);
      const map = await adminSyncMapOf(app.deps, request.params.bookId);
      if (!map) throw notFound(BOTH_FILES_MESSAGE);
      return map;
    },
  );

  app.put(
    '/api/admin/books/:bookId/sync-map',
    {
      schema: {
        tags: ['admin'],
        summary: 'Correct the pairing: which e-book chapter (spine index) goes with which audiobook chapter',
        params: bookIdParams,
        body: syncMapCorrectionSchema,
        response: { 200: adminSyncMapSchema, ...errors },
      },
    },
    async (request) => {
      const { bookId } = request.params;
      await knownBook(bookId);
      const result = await correctSyncMap(app.deps, actorOf(request), bookId, request.body.pairs);
      if (!result.ok && result.reason === 'no-files') throw notFound(BOTH_FILES_MESSAGE);
      if (!result.ok) throw badRequest('A pair names a chapter the files do not have. Reload the page and try again.');
      return result.map;
    },
  );

  app.delete(
    '/api/admin/books/:bookId/sync-map',
    { schema: { tags: ['admin'], summary: 'Drop the correction: pair the chapters by title and order again', params: bookIdParams, response: { 200: adminSyncMapSchema, ...errors } } },
    async (request) => {
      const { bookId } = request.params;
      await knownBook(bookId);
      const map = await resetSyncMap(app.deps, actorOf(request), bookId);
      if (!map) throw notFound(BOTH_FILES_MESSAGE);
      return map;
    },
  );
};
