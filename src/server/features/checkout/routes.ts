import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the checkout domain. */
export const checkoutRoutes: FastifyPluginAsyncZod = async () => {};
