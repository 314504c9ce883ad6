import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the site domain. */
export const siteRoutes: FastifyPluginAsyncZod = async () => {};
