import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Redis is optional: without it (or while it is away) limits count per instance (decision 0043), so an
 * instance stays ready and only reports it.
 */
const redisState = z.enum(['ok', 'unavailable', 'not configured']);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

async function redisStatus(app: { deps: { redis: { ping(): Promise<string> } | null } }) {
  if (!app.deps.redis) return 'not configured' as const;
  try {
    await withTimeout(app.deps.redis.ping(), 1000);
    return 'ok' as const;
  } catch {
    return 'unavailable' as const;
  }
}

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { tags: ['ops'], summary: 'The process is up', response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['ops'],
        summary: 'The database answers (503 when not, and while the instance drains before shutdown); Redis is reported but does not make the site unready',
        response: {
          200: z.object({ status: z.literal('ready'), database: z.string(), redis: redisState }),
          503: z.object({ status: z.literal('unavailable'), message: z.string(), redis: redisState.optional() }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      // Draining before shutdown: say so at once, without asking the database or Redis (decision 0021).
      if (app.frontDoor.closing) return reply.status(503).send({ status: 'unavailable' as const, message: 'shutting down' });
      const redis = await redisStatus(app);
      try {
        await withTimeout(app.deps.database.ping(), 3000);
        return { status: 'ready' as const, database: app.deps.database.kind, redis };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, message: 'database unavailable', redis });
      }
    },
  );
};
