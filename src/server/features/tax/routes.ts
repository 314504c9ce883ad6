import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { taxReportQuerySchema, taxReportSchema, taxSettingsAnswerSchema, taxSettingsSchema } from '@shared/schemas/tax';
import { actorOf } from '../../platform/operations/audit';
import { readTaxSettings, saveTaxSettings, taxReport } from './service';

const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** Admin tax setting, rates and report (decision 0080), under /api/admin with its admin check. */
export const adminTaxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/admin/tax',
    { schema: { tags: ['admin'], summary: 'Whether prices include tax, the default rate and the rates per country and format', response: { 200: taxSettingsAnswerSchema, ...refusals } } },
    async () => readTaxSettings(db),
  );

  app.put(
    '/api/admin/tax',
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the tax setting and the whole rate table (rates in percent, at most two decimals)',
        body: taxSettingsSchema,
        response: { 200: taxSettingsAnswerSchema, ...refusals },
      },
    },
    async (request) => saveTaxSettings(db, request.body, actorOf(request), app.deps.clock.now()),
  );

  app.get(
    '/api/admin/tax/report',
    {
      schema: {
        tags: ['admin'],
        summary: 'Net and tax of paid orders per quarter, country and rate (from=/to= quarters such as 2026-Q4)',
        querystring: taxReportQuerySchema,
        response: { 200: taxReportSchema, ...refusals },
      },
    },
    async (request) => taxReport(db, request.query),
  );

};
