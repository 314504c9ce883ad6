import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the auth domain. */
export const authRoutes: FastifyPluginAsyncZod = async () => {};
