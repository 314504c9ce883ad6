import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resetLinkStatusQuerySchema, resetLinkStatusSchema } from '@shared/schemas/auth';
import { errorSchema } from '@shared/schemas/common';
import type { AppDeps } from '../../deps';
import { users } from '../../db/schema';
import { sha256 } from '../../platform/crypto';

/**
 * Whether a reset link (token and address) would still be accepted: unused, unexpired, for that address.
 * Read-only; the reset itself still consumes the token in one conditional statement.
 */
export async function resetLinkValid(deps: Pick<AppDeps, 'database' | 'clock'>, input: { email: string; token: string }): Promise<boolean> {
  const [row] = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.resetTokenHash, sha256(input.token)),
        gt(users.resetTokenExpires, deps.clock.now()),
        sql`lower(${users.email}) = lower(${input.email})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

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
