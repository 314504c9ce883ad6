import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the blog domain. */
export const blogRoutes: FastifyPluginAsyncZod = async () => {};
