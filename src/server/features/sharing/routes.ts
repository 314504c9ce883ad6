import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the sharing domain. */
export const sharingRoutes: FastifyPluginAsyncZod = async () => {};
