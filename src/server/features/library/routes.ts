import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParam } from '@shared/schemas/common';
import {
  DOWNLOAD_REQUEST_MESSAGES,
  adminDownloadRequestSchema,
  adminDownloadRequestsSchema,
  downloadRequestAnswerSchema,
  downloadRequestInputSchema,
  purchaseIdParams,
} from '@shared/schemas/download-requests';
import { actorOf } from '../../platform/operations/audit';
import { DOWNLOAD_LIMIT_MESSAGE, FILE_NOT_READY_MESSAGE, assetIdParams, assetLookupSchema, assetQuerySchema, bookIdParams, downloadLinkSchema, libraryResponseSchema, ordersResponseSchema, userIdQuery } from '@shared/schemas/library';
import { AppError, forbidden, notFound } from '../../platform/http/errors';
import { DOWNLOAD_LINK_TTL_MS, createDownloadToken, readerFileName } from './download-link';
import { getBook } from '../books/service';
import { defineEditionNotice } from './edition-notice';
import { fileRoutes } from './file-routes';
import { checkUserIdParam, requireDeliberateRequest } from './request-guards';
import { openOwnedFile } from './owned-file';
import { assertReleased } from '../pre-orders/service';
import {
  findAsset,
  findEntitledPurchase,
  findOpenLink,
  grantDownloadRequest,
  listDownloadRequests,
  listLibrary,
  listOrders,
  ownsFormat,
  requestAnotherDownload,
  spendDownload,
  toAssetAnswer,
} from './service';
import { requireUser } from '../../platform/security/sessions';

/** Routes of the library domain: the reader's purchases, assets and one-time download links. */
export const libraryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
  defineEditionNotice(app.deps);

  app.get(
    '/api/library/books',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['library'],
        summary: "The caller's digital purchases (library items)",
        response: { 200: libraryResponseSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listLibrary(db, requireUser(request).userId, app.deps.clock.now());
    },
  );

  app.get(
    '/api/library/orders',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['library'],
        summary: "The caller's hardcover and paperback orders with their shipping status",
        response: { 200: ordersResponseSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listOrders(db, requireUser(request).userId, app.deps.clock.now());
    },
  );

  app.get(
    '/api/books/:bookId/assets',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['library'],
        summary: 'The digital asset of a format the caller bought',
        params: bookIdParams,
        querystring: assetQuerySchema,
        response: { 200: assetLookupSchema, ...errors },
      },
    },
    async (request) => {
      checkUserIdParam(request, request.query.userId);
      const { bookId } = request.params;
      const { format } = request.query;
      if (!(await ownsFormat(db, requireUser(request).userId, bookId, format))) {
        throw forbidden('You have not purchased this format');
      }
      await assertReleased(db, bookId, app.deps.clock.now());
      const asset = await findAsset(db, { bookId, format });
      if (!asset) throw notFound(FILE_NOT_READY_MESSAGE);
      return { success: true, asset: toAssetAnswer(asset), message: 'Asset found' };
    },
  );

  app.get(
    '/api/digital-assets/:assetId/download',
    {
      preHandler: app.requireUser,
      // HEAD must never spend a download, so this route answers GET only.
      exposeHeadRoute: false,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['library'],
        summary: 'Spend the one download of a purchased format and get a short-lived signed link',
        params: assetIdParams,
        querystring: userIdQuery,
        response: { 200: downloadLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      checkUserIdParam(request, request.query.userId);
      requireDeliberateRequest(app, request);
      const userId = requireUser(request).userId;
      const asset = await findAsset(db, { id: request.params.assetId });
      if (!asset) throw notFound(FILE_NOT_READY_MESSAGE);
      const now = app.deps.clock.now();
      // Before its release a pre-order's download is not spent, only refused with the date.
      if (await ownsFormat(db, userId, asset.bookId, asset.format)) await assertReleased(db, asset.bookId, now);
      const linkId = app.deps.random.token(18);
      const spent = await spendDownload(db, { userId, bookId: asset.bookId, format: asset.format, assetId: asset.id, linkId, now });
      if (!spent) {
        if (await ownsFormat(db, userId, asset.bookId, asset.format)) {
          throw new AppError('DOWNLOAD_LIMIT', 403, DOWNLOAD_LIMIT_MESSAGE);
        }
        throw forbidden('You have not purchased this format');
      }
      const token = createDownloadToken(app.deps.secret, {
        linkId,
        assetId: asset.id,
        purchaseId: spent.purchaseId,
        userId,
        expiresAt: now.getTime() + DOWNLOAD_LINK_TTL_MS,
      });
      app.deps.metrics.downloads.inc({ format: asset.format });
      // Start building the buyer's personal copy now, so the file request that follows finds it ready.
      void findEntitledPurchase(db, spent.purchaseId, userId)
        .then((purchase) => purchase && openOwnedFile(app.deps, { ...purchase, userId }, purchase.format))
        .catch((error) => request.log.warn({ err: error, purchaseId: spent.purchaseId }, 'personal copy build failed'));
      reply.header('Cache-Control', 'no-store');
      return {
        success: true,
        downloadUrl: `/files/download/${token}`,
        fileName: readerFileName((await getBook(db, asset.bookId))?.title ?? '', asset.format, asset.fileName),
        message: 'Your download link is ready. It is valid for 10 minutes.',
      };
    },
  );

  app.post(
    '/api/library/downloads/:purchaseId/resume',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['library'],
        summary: 'The still-open link of an interrupted download of this library row (spends nothing; resume with Range)',
        params: purchaseIdParams,
        response: { 200: downloadLinkSchema, ...errors, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const userId = requireUser(request).userId;
      const { purchaseId } = request.params;
      const now = app.deps.clock.now();
      const purchase = await findEntitledPurchase(db, purchaseId, userId);
      if (!purchase) throw forbidden(DOWNLOAD_REQUEST_MESSAGES.notYours);
      await assertReleased(db, purchase.bookId, now);
      const link = await findOpenLink(db, userId, purchaseId, now);
      const asset = link ? await findAsset(db, { id: link.assetId }) : null;
      if (!link || !asset) throw new AppError('NO_OPEN_LINK', 409, DOWNLOAD_REQUEST_MESSAGES.noOpenLink);
      // The same link again (same id and expiry, so the same transfer): nothing new is issued or spent.
      const token = createDownloadToken(app.deps.secret, { linkId: link.linkId, assetId: link.assetId, purchaseId, userId, expiresAt: link.expiresAt });
      reply.header('Cache-Control', 'no-store');
      return {
        success: true,
        downloadUrl: `/files/download/${token}`,
        fileName: readerFileName((await getBook(db, asset.bookId))?.title ?? '', asset.format, asset.fileName),
        message: 'Your download continues where it stopped.',
      };
    },
  );

  app.post(
    '/api/library/download-requests',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['library'],
        summary: '"Need another download?": ask the author for another download of a spent library row',
        body: downloadRequestInputSchema,
        response: { 201: downloadRequestAnswerSchema, ...errors, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const created = await requestAnotherDownload(app.deps, requireUser(request).userId, request.body.purchaseId);
      return reply.status(201).send({ success: true, message: DOWNLOAD_REQUEST_MESSAGES.sent, request: created });
    },
  );

  await app.register(fileRoutes);
};

/** The admin's side of "Need another download?": the list and the one-click grant (inside the admin guard). */
export const adminLibraryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const refusals = { 401: errorSchema, 403: errorSchema };

  app.get(
    '/api/admin/download-requests',
    {
      schema: {
        tags: ['admin'],
        summary: 'Readers asking for another download: pending ones first (oldest first), then the latest granted',
        response: { 200: adminDownloadRequestsSchema, ...refusals },
      },
    },
    async () => ({ requests: await listDownloadRequests(db) }),
  );

  app.post(
    '/api/admin/download-requests/:id/grant',
    {
      schema: {
        tags: ['admin'],
        summary: 'Grant another download: the allowance comes back and the reader is mailed; a second grant is 409',
        params: idParam,
        response: { 200: adminDownloadRequestSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => grantDownloadRequest(app.deps, request.params.id, actorOf(request)),
  );
};
