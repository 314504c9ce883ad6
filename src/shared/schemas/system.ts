import { z } from 'zod';

/** GET /api/admin/system: the site's health in words, for the admin's System page. */
export const systemStatusSchema = z.object({
  version: z.string(),
  nodeVersion: z.string(),
  startedAt: z.string(),
  database: z.enum(['pglite', 'postgres']),
  fileStore: z.object({ kind: z.enum(['disk', 's3']), location: z.string() }),
  payments: z.enum(['local', 'stripe']),
  redis: z.enum(['ok', 'unavailable', 'not configured']),
  smtpConfigured: z.boolean(),
  mail: z.object({ pending: z.number().int(), failed: z.number().int(), kept: z.number().int(), sent: z.number().int() }),
  jobs: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['pending', 'done', 'failed']),
      nextRunAt: z.string(),
      lastFinishedAt: z.string().nullable(),
      lastError: z.string().nullable(),
      attempts: z.number().int(),
    }),
  ),
  reconciliation: z
    .object({
      lastRunAt: z.string().nullable(),
      checked: z.number().int().nullable(),
      repaired: z.number().int().nullable(),
      lastError: z.string().nullable(),
    })
    .nullable(),
  webhookFailures: z.array(
    z.object({ id: z.number().int(), at: z.string(), reason: z.string(), eventId: z.string().nullable() }),
  ),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

export const mailRetryResponseSchema = z.object({ retried: z.number().int(), message: z.string() });
export type MailRetryResponse = z.infer<typeof mailRetryResponseSchema>;
