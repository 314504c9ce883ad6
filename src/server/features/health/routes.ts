import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

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
        summary: 'The database answers',
        response: {
          200: z.object({ status: z.literal('ready'), database: z.string() }),
          503: z.object({ status: z.literal('unavailable'), message: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await app.deps.database.ping();
        return { status: 'ready' as const, database: app.deps.database.kind };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, message: 'database unavailable' });
      }
    },
  );
};
