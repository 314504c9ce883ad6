import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { dashboardStatsSchema, salesSeriesQuerySchema, salesSeriesSchema } from '@shared/schemas/dashboard';
import { untilClientGone } from '../../platform/operations/reports';
import { getDashboardStats, getSalesSeries } from './service';

const refusals = { 401: errorSchema, 403: errorSchema };

/** The author's statistics: admin only, aggregates computed by the database. */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reports } = app.deps;
  // onRequest, so a caller without the admin role is refused before anything else is looked at.
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/api/dashboard/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard statistics (revenue in minor units)',
        security: [{ bearer: [] }],
        response: { 200: dashboardStatsSchema, ...refusals },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reports.run((db) => getDashboardStats(db), untilClientGone(reply.raw));
    },
  );

  app.get(
    '/api/dashboard/sales',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Sales and revenue over time and the format split',
        security: [{ bearer: [] }],
        querystring: salesSeriesQuerySchema,
        response: { 200: salesSeriesSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const now = app.deps.clock.now();
      return reports.run((db) => getSalesSeries(db, request.query.range, now), untilClientGone(reply.raw));
    },
  );
};
