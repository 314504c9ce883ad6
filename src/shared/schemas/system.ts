import { z } from 'zod';
import { text } from './common';

/** GET /api/admin/system: the site's health in words, for the admin's System page. */
export const systemStatusSchema = z.object({
  version: text(),
  nodeVersion: text(),
  startedAt: text(),
  database: z.enum(['pglite', 'postgres']),
  fileStore: z.object({ kind: z.enum(['disk', 's3']), location: text() }),
  payments: z.enum(['local', 'stripe']),
  redis: z.enum(['ok', 'unavailable', 'not configured']),
  smtpConfigured: z.boolean(),
  mail: z.object({ pending: z.number().int(), failed: z.number().int(), kept: z.number().int(), sent: z.number().int() }),
  jobs: z.array(
    z.object({
      name: text(),
      status: z.enum(['pending', 'done', 'failed']),
      nextRunAt: text(),
      lastFinishedAt: text().nullable(),
      lastError: text().nullable(),
      attempts: z.number().int(),
    }),
  ),
  reconciliation: z
    .object({
      lastRunAt: text().nullable(),
      checked: z.number().int().nullable(),
      repaired: z.number().int().nullable(),
      lastError: text().nullable(),
    })
    .nullable(),
  webhookFailures: z.array(
    z.object({ id: z.number().int(), at: text(), reason: text(), eventId: text().nullable() }),
  ),
  /** Webhooks refused for a bad signature: counted, not listed, so they cannot hide the real failures. */
  forgedWebhooks: z.object({ last24Hours: z.number().int(), last7Days: z.number().int(), lastAt: text().nullable() }),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

export const mailRetryResponseSchema = z.object({ retried: z.number().int(), message: text() });
export type MailRetryResponse = z.infer<typeof mailRetryResponseSchema>;
