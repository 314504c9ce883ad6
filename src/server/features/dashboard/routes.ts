import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the dashboard domain. */
export const dashboardRoutes: FastifyPluginAsyncZod = async () => {};
