import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resetLinkStatusQuerySchema, resetLinkStatusSchema } from '@shared/schemas/auth';
import { errorSchema } from '@shared/schemas/common';
import { resetLinkValid } from './reset-service';

/**
 * Lets the reset page check its link as it opens, so a used or expired link says so before the reader
 * types a new password. The answer is only `valid: true | false`: not whether the address has an
 * account, nor why a link is invalid. Limited per IP like the reset itself.
 */
export const resetStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/users/reset-password/status',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags: ['auth'],
        summary: 'Whether a password-reset link is still usable (nothing else is revealed)',
        querystring: resetLinkStatusQuerySchema,
        response: { 200: resetLinkStatusSchema, 400: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      // The query carries a live token: never keep the answer anywhere, never send it on as a Referer.
      reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
      return { valid: await resetLinkValid(app.deps, request.query) };
    },
  );
};
