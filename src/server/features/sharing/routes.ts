import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { shareAnswerSchema, shareSchema } from '@shared/schemas/sharing';
import { PLATFORM_NAMES, recordShare } from './service';

/** Per IP: generous for real sharing, a ceiling on scripted activity rows. */
export const SHARE_LIMIT = { max: 30, timeWindow: 60 * 1000 };

/** Routes of the sharing domain: anonymous shares are welcome, signed-in readers earn points. */
export const sharingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/social-share',
    {
      config: { rateLimit: SHARE_LIMIT },
      schema: {
        tags: ['sharing'],
        summary: 'Record a share; points once per platform per day for a signed-in reader',
        body: shareSchema,
        response: { 200: shareAnswerSchema, 400: errorSchema, 403: errorSchema, 429: errorSchema },
      },
    },
    async (request) => {
      const { platform } = request.body;
      const name = PLATFORM_NAMES[platform];
      if (!request.auth) {
        return { success: true, pointsAwarded: 0, message: `Thanks for sharing on ${name}!` };
      }
      const points = await recordShare(app.deps.database.db, request.auth.userId, platform, app.deps.clock.now());
      return {
        success: true,
        pointsAwarded: points,
        message:
          points > 0
            ? `Thanks for sharing on ${name}! You earned ${points} points.`
            : `Thanks for sharing on ${name}! You have already earned today's points for ${name}.`,
      };
    },
  );
};
