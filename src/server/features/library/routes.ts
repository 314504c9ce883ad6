import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Routes of the library domain. */
export const libraryRoutes: FastifyPluginAsyncZod = async () => {};
