import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { taxReportQuerySchema } from '@shared/schemas/tax';
import { taxReport, taxReportTable } from '../tax/service';
import { toCsv } from './csv';

/** The tax report (decision 0080) as a file for the accountant, safe to open in a spreadsheet. */
export const adminTaxReportCsvRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/tax/report.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'The tax report as CSV: quarter, country, rate, net and tax',
        produces: ['text/csv'],
        querystring: taxReportQuerySchema,
        response: { 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const { header, rows } = taxReportTable(await taxReport(app.deps.database.db, request.query));
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="tax-report.csv"')
        .header('Cache-Control', 'no-store');
      // The typed reply knows only the refusals' shapes; the file is sent as it is.
      return (reply as FastifyReply).send(toCsv(header, rows));
    },
  );
};
