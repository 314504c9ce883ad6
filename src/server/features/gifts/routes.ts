import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParam, successMessageSchema } from '@shared/schemas/common';
import { giftClaimResultSchema, giftTokenParams, giftViewSchema } from '@shared/schemas/gifts';
import { GIFT_SEND_JOB, claimGift, resendGift, sendGift, viewGift } from './service';
import { addIncludedEditions } from '../library/service';
import { requireUser } from '../../platform/security/sessions';

/** Routes of the gifts domain: the claim link, claiming, and the buyer's resend. */
export const giftsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

  app.deps.jobs.define(GIFT_SEND_JOB, {
    leaseMs: 2 * 60_000,
    handler: (job) => {
      const { giftId, seq } = job.payload as { giftId: number; seq: number };
      return sendGift(app.deps, giftId, seq);
    },
  });

  app.get(
    '/api/gifts/:token',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['gifts'],
        summary: 'What a gift link holds: who it is from, the message, the book and format',
        params: giftTokenParams,
        response: { 200: giftViewSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return viewGift(db, request.params.token);
    },
  );

  app.post(
    '/api/gifts/:token/claim',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['gifts'],
        summary: "Claim a gift into the signed-in reader's library (once)",
        params: giftTokenParams,
        response: { 200: giftClaimResultSchema, ...errors },
      },
    },
    async (request) => claimGift(app.deps, request.params.token, requireUser(request).userId, addIncludedEditions),
  );

  app.post(
    '/api/orders/gifts/:id/resend',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['gifts'],
        summary: 'Send a gift the caller bought to its recipient again (at most every 10 minutes)',
        params: idParam,
        response: { 200: successMessageSchema, ...errors },
      },
    },
    async (request) => resendGift(app.deps, requireUser(request).userId, request.params.id),
  );
};
