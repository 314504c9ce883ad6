import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { errorSchema, idParam } from '@shared/schemas/common';
import { TRACE_MAX_BYTES, TRACE_NOT_FOUND_MESSAGE, kindleSendSchema, traceResultSchema } from '@shared/schemas/copies';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { actorOf, audit } from '../../platform/operations/audit';
import { readOneFile } from '../../platform/storage/uploads';
import { ZipRefused } from '../../platform/storage/zip';
import { listSendsOfOrder } from './kindle-service';
import { findByFingerprint } from './service';
import { marksIn } from './trace';

/** Admin side of copies: Trace a Copy, and the Send to Kindle history of an order. Admin only. */
export const adminCopiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  // The admin check runs before the body is read: a stranger's upload is refused unread.
  app.addHook('onRequest', app.requireAdmin);
  await app.register(multipart, { limits: { fileSize: TRACE_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
  const refusals = { 401: errorSchema, 403: errorSchema };

  app.post(
    '/api/admin/trace',
    {
      schema: {
        tags: ['admin'],
        summary: 'Find the purchase a leaked EPUB or PDF was made for (multipart field "file")',
        consumes: ['multipart/form-data'],
        response: { 200: traceResultSchema, 400: errorSchema, 404: errorSchema, 413: errorSchema, 415: errorSchema, ...refusals },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the file as multipart/form-data');
      const { fileName, data } = await readOneFile(request, {
        field: 'file',
        missing: () => badRequest('Choose a file to trace', { file: 'Choose a file to trace' }),
        tooLarge: () => new AppError('FILE_TOO_LARGE', 413, 'The file is too large to trace. The limit is 100 MB.'),
      });
      if (data.length === 0) throw badRequest('The file is empty', { file: 'The file is empty' });
      // A zip bomb is refused (400 naming the limit) but still audited: someone tried to trace it.
      let marks: string[] = [];
      let refusal: ZipRefused | null = null;
      try {
        marks = await marksIn(data);
      } catch (error) {
        if (!(error instanceof ZipRefused)) throw error;
        refusal = error;
      }
      let found = null;
      for (const mark of marks) {
        found = await findByFingerprint(db, mark);
        if (found) break;
      }
      await audit(
        db,
        actorOf(request),
        {
          action: 'copy.trace',
          targetType: found ? 'purchase' : undefined,
          targetId: found?.purchaseId,
          details: {
            fileName,
            bytes: data.length,
            found: Boolean(found),
            ...(found ? { username: found.username, format: found.format } : {}),
            ...(refusal ? { refused: refusal.code } : {}),
          },
        },
        app.deps.clock.now(),
      );
      if (refusal) throw refusal;
      if (!found) throw notFound(TRACE_NOT_FOUND_MESSAGE);
      return found;
    },
  );

  app.get(
    '/api/admin/orders/:id/kindle-sends',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every Send to Kindle of an order, newest first',
        params: idParam,
        response: { 200: z.array(kindleSendSchema), 400: errorSchema, ...refusals },
      },
    },
    async (request) => listSendsOfOrder(db, request.params.id),
  );
};
