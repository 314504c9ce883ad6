import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  audienceSchema,
  broadcastInputSchema,
  broadcastSchema,
  broadcastSummarySchema,
  sendBroadcastSchema,
  suppressInputSchema,
  suppressionSchema,
} from '@shared/schemas/broadcasts';
import { errorSchema, idParam, successMessageSchema } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { audienceSize } from './audience';
import {
  cancelBroadcast,
  createBroadcast,
  getBroadcast,
  listBroadcasts,
  listSuppressions,
  previewBroadcast,
  sendBroadcast,
  sendTestBroadcast,
  suppressAddress,
  updateBroadcast,
} from './broadcasts';
import { requireUser } from '../../platform/security/sessions';

const refusals = { 401: errorSchema, 403: errorSchema };
const editRefusals = { 400: errorSchema, 404: errorSchema, 409: errorSchema, ...refusals };

/** The admin's Newsletter: broadcasts to parts of the confirmed list, and the suppression list (decision 0077). */
export const adminBroadcastRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const clock = app.deps.clock;
  const { publicUrl } = app.deps.config;

  app.get(
    '/api/admin/broadcasts',
    { schema: { tags: ['admin'], summary: 'Every broadcast, newest first', response: { 200: z.array(broadcastSummarySchema), ...refusals } } },
    async () => listBroadcasts(db),
  );

  app.post(
    '/api/admin/broadcasts',
    { schema: { tags: ['admin'], summary: 'Write a broadcast (a draft)', body: broadcastInputSchema, response: { 201: broadcastSchema, ...editRefusals } } },
    async (request, reply) => reply.status(201).send(await createBroadcast(db, request.body, actorOf(request), clock.now(), publicUrl)),
  );

  app.post(
    '/api/admin/broadcasts/audience-size',
    {
      schema: {
        tags: ['admin'],
        summary: 'How many confirmed subscribers an audience holds now',
        body: z.object({ audience: audienceSchema }),
        response: { 200: z.object({ audienceSize: z.number().int() }), 400: errorSchema, ...refusals },
      },
    },
    async (request) => ({ audienceSize: await audienceSize(db, request.body.audience) }),
  );

  app.post(
    '/api/admin/broadcasts/preview',
    {
      schema: {
        tags: ['admin'],
        summary: 'The mail as a subscriber will get it (HTML and plain text), before saving',
        body: broadcastInputSchema.pick({ subject: true, previewText: true, body: true }),
        response: { 200: z.object({ html: z.string(), text: z.string() }), 400: errorSchema, ...refusals },
      },
    },
    async (request) => previewBroadcast(app.deps, request.body),
  );

  app.get(
    '/api/admin/broadcasts/:id',
    { schema: { tags: ['admin'], params: idParam, response: { 200: broadcastSchema, 400: errorSchema, 404: errorSchema, ...refusals } } },
    async (request) => getBroadcast(db, request.params.id, publicUrl),
  );

  app.put(
    '/api/admin/broadcasts/:id',
    { schema: { tags: ['admin'], summary: 'Edit a draft', params: idParam, body: broadcastInputSchema, response: { 200: broadcastSchema, ...editRefusals } } },
    async (request) => updateBroadcast(db, request.params.id, request.body, actorOf(request), clock.now(), publicUrl),
  );

  app.post(
    '/api/admin/broadcasts/:id/test',
    {
      config: { rateLimit: { max: 20, timeWindow: 60 * 60_000 } },
      schema: { tags: ['admin'], summary: 'Send a test to the author', params: idParam, response: { 200: successMessageSchema, ...editRefusals, 429: errorSchema } },
    },
    async (request) => ({ success: true, ...(await sendTestBroadcast(app.deps, request.params.id, requireUser(request).userId)) }),
  );

  app.post(
    '/api/admin/broadcasts/:id/send',
    {
      schema: {
        tags: ['admin'],
        summary: 'Send now, or at sendAt',
        params: idParam,
        body: sendBroadcastSchema,
        response: { 200: broadcastSchema, ...editRefusals },
      },
    },
    async (request) => sendBroadcast(app.deps, request.params.id, request.body.sendAt, actorOf(request)),
  );

  app.post(
    '/api/admin/broadcasts/:id/cancel',
    { schema: { tags: ['admin'], summary: 'Cancel a scheduled send', params: idParam, response: { 200: broadcastSchema, ...editRefusals } } },
    async (request) => cancelBroadcast(db, request.params.id, actorOf(request), clock.now(), publicUrl),
  );

  app.get(
    '/api/admin/suppressions',
    {
      schema: {
        tags: ['admin'],
        summary: 'Addresses no broadcast will reach: unsubscribed, bounced, complained',
        response: { 200: z.object({ total: z.number().int(), items: z.array(suppressionSchema) }), ...refusals },
      },
    },
    async () => listSuppressions(db),
  );

  app.post(
    '/api/admin/suppressions',
    {
      schema: {
        tags: ['admin'],
        summary: 'Record a complaint or a late bounce for an address',
        body: suppressInputSchema,
        response: { 200: successMessageSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request) => {
      await suppressAddress(db, request.body.email, request.body.state);
      return { success: true, message: `${request.body.email} will not be sent any broadcast` };
    },
  );
};
