import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the contact domain. */
export const contactRoutes: FastifyPluginAsyncZod = async () => {};
