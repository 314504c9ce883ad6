import type { FastifyInstance } from 'fastify';
import { booksRoutes } from './books/routes';
import { healthRoutes } from './health/routes';

/**
 * Every feature's routes, registered in one place. Each feature is a Fastify plugin in
 * features/<domain>/routes.ts.
 */
export async function registerFeatures(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(booksRoutes);
}
