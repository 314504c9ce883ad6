import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the users domain. */
export const usersRoutes: FastifyPluginAsyncZod = async () => {};
