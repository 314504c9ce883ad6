import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the newsletter domain. */
export const newsletterRoutes: FastifyPluginAsyncZod = async () => {};
