import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookIdParams } from '@shared/schemas/library';
import { errorSchema, idParam, successMessageSchema } from '@shared/schemas/common';
import {
  KINDLE_SENDS_PER_DAY,
  MAX_KINDLE_DEVICES,
  kindleAddressInputSchema,
  kindleDeviceSchema,
  kindleDevicesAnswerSchema,
  sendToKindleAnswerSchema,
} from '@shared/schemas/copies';
import { adminCopiesRoutes } from './admin-routes';
import { addDevice, listDevices, removeDevice, senderAddress, sendToKindle, sendsToday, type OpenOwnedFile } from './kindle-service';
import { requireUser } from '../../platform/security/sessions';

/** Routes of the copies domain: the reader's Kindle addresses and Send to Kindle; the admin's trace. */
export const copiesRoutes: FastifyPluginAsyncZod<{ openOwnedFile: OpenOwnedFile }> = async (app, { openOwnedFile }) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

  app.get(
    '/api/library/kindle',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['copies'],
        summary: "The caller's Kindle addresses, the sender address to approve at Amazon, and today's sends",
        response: { 200: kindleDevicesAnswerSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const userId = requireUser(request).userId;
      return {
        devices: await listDevices(db, userId),
        senderAddress: senderAddress(app.deps.config.MAIL_FROM),
        maxDevices: MAX_KINDLE_DEVICES,
        sendsToday: await sendsToday(db, userId, app.deps.clock.now()),
        dailyLimit: KINDLE_SENDS_PER_DAY,
      };
    },
  );

  app.post(
    '/api/library/kindle/devices',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['copies'],
        summary: 'Save a Kindle address (@kindle.com or @free.kindle.com), up to three',
        body: kindleAddressInputSchema,
        response: { 201: kindleDeviceSchema, 409: errorSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await addDevice(db, requireUser(request).userId, request.body.address, app.deps.clock.now())),
  );

  app.delete(
    '/api/library/kindle/devices/:id',
    {
      preHandler: app.requireUser,
      schema: { tags: ['copies'], summary: 'Remove a saved Kindle address', params: idParam, response: { 200: successMessageSchema, ...errors } },
    },
    async (request) => {
      await removeDevice(db, requireUser(request).userId, request.params.id);
      return { success: true, message: 'Kindle address removed' };
    },
  );

  app.post(
    '/api/library/:bookId/ebook/send-to-kindle',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['copies'],
        summary: "Mail the caller's personal EPUB to their Kindle (queued; 5 a day; does not spend the download)",
        params: bookIdParams,
        body: kindleAddressInputSchema,
        response: { 202: sendToKindleAnswerSchema, 409: errorSchema, 413: errorSchema, 429: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { sendId } = await sendToKindle(app.deps, {
        userId: requireUser(request).userId,
        bookId: request.params.bookId,
        address: request.body.address,
      }, openOwnedFile);
      reply.header('Cache-Control', 'no-store');
      return reply.status(202).send({
        success: true,
        sendId,
        message: `On its way to ${request.body.address}. It usually arrives within a few minutes.`,
      });
    },
  );

  await app.register(adminCopiesRoutes);
};

