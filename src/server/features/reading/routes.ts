import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '@shared/schemas/common';
import {
  chaptersAnswerSchema,
  positionAnswerSchema,
  positionSchema,
  progressListSchema,
  readingParams,
  stalePositionSchema,
} from '@shared/schemas/reading';
import { bookIdParams } from '@shared/schemas/library';
import { readingRoomBookId } from '@shared/app-paths';
import { FILE_NOT_READY_MESSAGE } from '@shared/schemas/library';
import { AppError, forbidden, notFound } from '../../platform/http/errors';
import { findOwnedPurchase, openMasterFile, openOwnedFile, sendOwnedFile } from '../library/service';
import { assertReleased } from '../pre-orders/service';
import { getBook } from '../books/service';
import { chaptersOf, getPosition, listPositions, sampleEpub, savePosition } from './service';
import { FILE_CONTENT_POLICY } from '../../platform/security/security';
import { requireUser } from '../../platform/security/sessions';

/** How far ahead of the server's clock a device's `updatedAt` may be; later times are taken as now. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The reading room's API: the owner's copy streamed for reading and listening (never a download: the
 * allowance and the download counts are not touched), positions synced across devices, audiobook
 * chapters, and the free sample anyone may read.
 */
export const readingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

  /**
   * What lets the caller into the reading room for this format: their purchase (once the book is out),
   * or being the author, who reads and listens to the master of their own book without buying it.
   */
  async function ownedPurchase(request: FastifyRequest, bookId: number, format: string) {
    const purchase = await findOwnedPurchase(db, requireUser(request).userId, bookId, format);
    if (!purchase) {
      if (requireUser(request).role === 'admin' && (await getBook(db, bookId))) return 'author' as const;
      throw forbidden('You have not purchased this format');
    }
    await assertReleased(db, bookId, app.deps.clock.now());
    return purchase;
  }

  async function ownedFile(request: FastifyRequest, bookId: number, format: string) {
    const right = await ownedPurchase(request, bookId, format);
    const opened = right === 'author' ? await openMasterFile(app.deps, bookId, format) : await openOwnedFile(app.deps, right, format);
    if (!opened.ok) {
      if (opened.reason === 'missing-file') request.log.error({ key: opened.key }, 'digital asset file is missing from the file store');
      if (opened.reason === 'unreadable-file') request.log.error({ key: opened.key }, 'digital asset file cannot be opened (a zip bomb or a damaged archive)');
      throw notFound(FILE_NOT_READY_MESSAGE);
    }
    return opened.file;
  }

  app.get(
    '/api/library/:bookId/:format/content',
    {
      preHandler: app.requireUser,
      // Players fetch many ranges while seeking; this is generous but still bounds a scraper.
      config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
      schema: {
        tags: ['reading'],
        summary: "Stream the caller's copy of a purchased format for reading or listening (Range supported; not a download)",
        params: readingParams,
        response: { 200: z.any(), 206: z.any(), 416: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const { bookId, format } = request.params;
      const file = await ownedFile(request, bookId, format);
      reply.header('Cache-Control', 'private, no-store');
      reply.header('Content-Disposition', 'inline');
      // Never framed or run as a page of this origin, whatever the file holds.
      reply.header('Content-Security-Policy', FILE_CONTENT_POLICY);
      return sendOwnedFile(request, reply, file);
    },
  );

  app.get(
    '/api/library/:bookId/:format/position',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reading'],
        summary: 'Where the caller last was in a purchased format (null before the first save)',
        params: readingParams,
        response: { 200: positionAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { bookId, format } = request.params;
      await ownedPurchase(request, bookId, format);
      reply.header('Cache-Control', 'private, no-store');
      return { position: await getPosition(db, requireUser(request).userId, bookId, format) };
    },
  );

  app.put(
    '/api/library/:bookId/:format/position',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 240, timeWindow: '1 minute' } },
      schema: {
        tags: ['reading'],
        summary: 'Save where the caller is; a write older than the stored position is refused with 409',
        params: readingParams,
        body: positionSchema,
        response: { 200: positionAnswerSchema, 409: stalePositionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { bookId, format } = request.params;
      await ownedPurchase(request, bookId, format);
      // A device whose clock runs fast must not lock every other device out: the future is "now".
      const latest = app.deps.clock.now().getTime() + CLOCK_SKEW_MS;
      const at = Math.min(new Date(request.body.updatedAt).getTime(), latest);
      const position = { ...request.body, updatedAt: new Date(at).toISOString() };
      const result = await savePosition(db, { userId: requireUser(request).userId, bookId, format, position });
      reply.header('Cache-Control', 'no-store');
      if ('stale' in result) {
        return reply.status(409).send({
          message: 'A newer position was saved from another device.',
          code: 'STALE_POSITION',
          position: result.stale,
        });
      }
      return { position: result.saved };
    },
  );

  app.get(
    '/api/library/:bookId/audiobook/chapters',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reading'],
        summary: "The chapter marks of the caller's audiobook, read from the file's own tags",
        params: bookIdParams,
        response: { 200: chaptersAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { bookId } = request.params;
      await ownedPurchase(request, bookId, 'audiobook');
      const answer = await chaptersOf(app.deps, bookId);
      if (!answer) throw notFound(FILE_NOT_READY_MESSAGE);
      reply.header('Cache-Control', 'private, no-store');
      return answer;
    },
  );

  app.get(
    '/api/reading/progress',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reading'],
        summary: "The caller's saved positions, one per book and format",
        response: { 200: progressListSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return listPositions(db, requireUser(request).userId);
    },
  );

  app.get(
    '/api/reading/sample',
    {
      schema: {
        tags: ['reading'],
        summary: 'The free sample EPUB of the featured book (its first chapter), for anyone',
        response: { 200: z.any(), 404: errorSchema },
      },
    },
    async (request, reply) => {
      let epub: Buffer | null;
      try {
        epub = await sampleEpub(app.deps);
      } catch (error) {
        request.log.error({ err: error }, 'could not cut the sample EPUB');
        throw new AppError('SAMPLE_UNAVAILABLE', 404, 'The free sample is not available right now.');
      }
      if (!epub) throw notFound('The free sample is not available right now.');
      reply.header('Content-Type', 'application/epub+zip');
      reply.header('Content-Disposition', 'inline; filename="sample.epub"');
      reply.header('Cache-Control', 'public, max-age=300');
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.send(epub);
    },
  );

  // The reading room of a book that does not exist is no page: the not-found page, with status 404.
  app.addHeadRenderer({
    match: (pathname) => {
      const bookId = readingRoomBookId(pathname);
      return bookId === null ? null : { bookId: String(bookId) };
    },
    render: async (_request, { bookId }) => ((await getBook(db, Number(bookId))) ? null : { notFound: true }),
  });
};
