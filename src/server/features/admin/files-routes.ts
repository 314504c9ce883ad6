import { formatLabel } from '@shared/constants';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { adminAssetSchema, assetParams, EDITION_NOTICE_MESSAGES, editionNoticeFieldsSchema, UPLOAD_LIMITS } from '@shared/schemas/admin';
import { errorSchema } from '@shared/schemas/common';
import { AppError, badRequest } from '../../platform/http/errors';
import { checkPdf } from '../../platform/storage/pdf';
import { carryPositionsToNewMaster, chaptersOf } from '../reading/service';
import { actorOf } from '../../platform/operations/audit';
import { ACCEPT_LABEL, acceptsType, detectType, safeFileName } from './file-types';
import { guardUpload, peekHead } from './upload-stream';
import { preflightEpub, preflightMessage } from '../copies/service';
import { announceUploadedFiles } from '../pre-orders/service';
import { listAdminFiles, queueEditionNotice, recordUpload, requireBook } from '../library/service';

const refusals = { 401: errorSchema, 403: errorSchema };
const MAX_UPLOAD = Math.max(...Object.values(UPLOAD_LIMITS));
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Digital files per book and format. The upload is checked by its bytes; a replacement updates the
 * same digital_assets row, so every past buyer's purchase now leads to the new file.
 */
export const adminFilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock, files, random } = app.deps;
  // Multipart parsing exists only inside this plugin: no other route accepts uploads.
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD, files: 1, fields: 5, parts: 6 } });

  app.get(
    '/api/admin/files',
    { schema: { tags: ['admin'], summary: 'Every digital file', response: { 200: z.array(adminAssetSchema), ...refusals } } },
    async () => listAdminFiles(db, files),
  );

  app.put(
    '/api/admin/books/:id/files/:format',
    {
      schema: {
        tags: ['admin'],
        summary: 'Upload or replace the file of a book and format (multipart field "file")',
        consumes: ['multipart/form-data'],
        params: assetParams,
        response: { 200: adminAssetSchema, 201: adminAssetSchema, 400: errorSchema, 404: errorSchema, 413: errorSchema, 415: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { id: bookId, format } = request.params;
      const limit = UPLOAD_LIMITS[format];
      await requireBook(db, bookId);
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the file as multipart/form-data');

      // The file streams from the request to the store (a temporary file renamed into place, or an S3
      // multipart upload): memory stays flat whatever the size. Its first bytes decide its type before
      // anything is stored; a file cut at the size limit or a dropped connection stores nothing.
      const tooLarge = () => new AppError('FILE_TOO_LARGE', 413, `The file is too large. The limit for the ${formatLabel(format)} is ${megabytes(limit)}.`);
      const malformed = () => badRequest('The upload could not be read. Please try again.');
      // Whatever the multipart parser refuses (no boundary, a part cut short, broken headers) is a bad
      // request, never a server fault.
      const readFailure = (error: unknown) => {
        if (error instanceof AppError) return error;
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
        return malformed();
      };
      const part = await request.file({ limits: { fileSize: limit } }).catch((error: unknown) => {
        throw readFailure(error);
      });
      if (!part) throw badRequest('Choose a file to upload', { file: 'Choose a file to upload' });
      // "Tell owners about this edition" and its note come as form fields before the file (decision 0091);
      // they are checked before anything is stored.
      const fieldValue = (name: string) => {
        const field = part.fields[name];
        const one = Array.isArray(field) ? field[0] : field;
        return one && 'value' in one ? String(one.value) : undefined;
      };
      const notice = editionNoticeFieldsSchema.safeParse({ notifyOwners: fieldValue('notifyOwners'), note: fieldValue('note') });
      if (!notice.success) {
        part.file.resume();
        const issue = notice.error.issues[0];
        throw badRequest(issue.message, { [String(issue.path[0])]: issue.message });
      }
      if (notice.data.notifyOwners && format === 'audiobook') {
        part.file.resume();
        throw badRequest(EDITION_NOTICE_MESSAGES.formatOnly, { notifyOwners: EDITION_NOTICE_MESSAGES.formatOnly });
      }
      const originalName = part.filename;
      const { head, body } = await peekHead(part.file, 64).catch((error: unknown) => {
        throw part.file.truncated ? tooLarge() : readFailure(error);
      });
      if (head.length === 0) throw badRequest('The file is empty', { file: 'The file is empty' });
      let upload: Readable = guardUpload(body, part.file, limit, { tooLarge, malformed });
      const wholeUpload = () =>
        buffer(upload).catch((error: unknown) => {
          throw readFailure(error);
        });
      // An EPUB that Kindle or an e-reader would refuse never becomes the master. The check reads the whole
      // archive, so an e-book (small beside its limit) is held in memory for it; it runs before the type
      // sniffing, so a zip with a compressed mimetype hears exactly that instead of "not an EPUB".
      if (format === 'ebook' && head.subarray(0, 2).toString('latin1') === 'PK') {
        const data = await wholeUpload();
        // A zip bomb throws its own 400 (ZipRefused) naming the limit it broke.
        const problems = await preflightEpub(data);
        if (problems.length) throw new AppError('EPUB_INVALID', 400, preflightMessage(problems), { file: preflightMessage(problems) });
        upload = Readable.from([data]);
      }
      // A PDF master is opened by pdf-lib for every personal copy, and pdf-lib inflates without limits: its
      // compressed streams are measured first (held in memory like the e-book, its limit is as small), and a
      // decompression bomb throws its own 400 (PdfRefused) naming the limit it broke.
      if (format === 'pdf' && head.subarray(0, 5).toString('latin1') === '%PDF-') {
        const data = await wholeUpload();
        await checkPdf(data);
        upload = Readable.from([data]);
      }
      const detected = detectType(head);
      if (!detected || !acceptsType(format, detected.contentType)) {
        part.file.resume();
        throw new AppError('UNSUPPORTED_FILE_TYPE', 415, `The ${formatLabel(format)} file must be ${ACCEPT_LABEL[format]}.`);
      }

      const fileName = safeFileName(originalName, detected.extension);
      const key = `books/${bookId}/${format}/${clock.now().getTime().toString(36)}-${random.token(6).replace(/[^A-Za-z0-9]/g, '')}-${fileName}`;
      // The guarded stream fails with a 4xx error when the upload was too large or unreadable; any other
      // failure is the store's own and stays a server error.
      const stored = await files.write(key, upload, detected.contentType).catch((error: unknown) => {
        if (part.file.truncated) throw tooLarge();
        throw error;
      });

      let recorded: Awaited<ReturnType<typeof recordUpload>>;
      try {
        recorded = await recordUpload(
          db,
          { bookId, format, key, fileName, contentType: detected.contentType, bytes: stored.size },
          actorOf(request),
          clock.now(),
        );
      } catch (error) {
        await files.remove(key).catch(() => undefined);
        throw error;
      }
      // Readers keep their place in every chapter the new master still has (read from the old one first).
      if (format === 'ebook' && recorded.previousKey) {
        await carryPositionsToNewMaster(app.deps, bookId, recorded.previousKey, key).catch((error) =>
          request.log.warn({ err: error, bookId }, 'could not carry reading positions to the new master'),
        );
      }
      // The old bytes are no longer referenced by any row; a download already streaming keeps its handle.
      if (recorded.previousKey) await files.remove(recorded.previousKey).catch(() => undefined);
      // Pre-order buyers told at the release that this format was not ready yet hear that it is now.
      await announceUploadedFiles(app.deps, bookId);
      // A replaced e-book or PDF, with the box ticked: its owners are told and get one download of it.
      const ownersNotified =
        notice.data.notifyOwners && !recorded.created && format !== 'audiobook'
          ? await queueEditionNotice(app.deps, { bookId, format, version: recorded.asset.version, note: notice.data.note })
          : undefined;
      // The listening room's chapter list comes from the file's own marks, read once, here.
      if (format === 'audiobook') await chaptersOf(app.deps, bookId).catch((error) => request.log.warn({ err: error }, 'could not read audio chapters'));

      return reply.status(recorded.created ? 201 : 200).send({ ...recorded.asset, ...(ownersNotified !== undefined ? { ownersNotified } : {}) });
    },
  );
};
