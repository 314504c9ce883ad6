import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the admin domain. */
export const adminRoutes: FastifyPluginAsyncZod = async () => {};
