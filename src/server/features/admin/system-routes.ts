import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { mailRetryResponseSchema, systemStatusSchema } from '@shared/schemas/system';
import { listJobs } from '../../platform/operations/jobs';
import { mailOutboxCounts, retryFailedMail } from '../../platform/mail/mail';
import { findProjectRoot } from '../../project-root';
import { actorOf, audit } from '../../platform/operations/audit';
import { RECONCILE_JOB, forgedWebhookSummary, recentWebhookFailures } from '../checkout/service';

const startedAt = new Date();

function siteVersion(): string {
  try {
    const root = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
    return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
const version = siteVersion();

async function redisState(redis: { ping(): Promise<string> } | null) {
  if (!redis) return 'not configured' as const;
  const ping = redis.ping().then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
  const timeout = new Promise<'unavailable'>((resolve) => setTimeout(() => resolve('unavailable'), 1000).unref());
  return Promise.race([ping, timeout]);
}

/** The admin's System page: what runs where, the mail outbox, jobs, reconciliation, webhook failures. */
export const adminSystemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const denied = { 401: errorSchema, 403: errorSchema };

  app.get(
    '/api/admin/system',
    { schema: { tags: ['admin'], summary: "The site's health in words", response: { 200: systemStatusSchema, ...denied } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const [mail, jobs, failures, forged, redis] = await Promise.all([
        mailOutboxCounts(db),
        listJobs(db),
        recentWebhookFailures(app.deps, 10),
        forgedWebhookSummary(app.deps),
        redisState(app.deps.redis),
      ]);
      const reconcile = jobs.find((j) => j.key === RECONCILE_JOB);
      const result = (reconcile?.lastResult ?? null) as { checked?: number; repaired?: number } | null;
      return {
        version,
        nodeVersion: process.version,
        startedAt: startedAt.toISOString(),
        database: app.deps.database.kind,
        fileStore: { kind: app.deps.files.kind, location: app.deps.files.location },
        payments: app.deps.payments.name,
        redis,
        smtpConfigured: app.deps.mailer.deliversMail,
        mail: { pending: mail.pending, failed: mail.failed, kept: mail.kept, sent: mail.sent },
        jobs: jobs.map((j) => ({
          name: j.name,
          status: j.status as 'pending' | 'done' | 'failed',
          nextRunAt: j.runAt.toISOString(),
          lastFinishedAt: j.lastFinishedAt?.toISOString() ?? null,
          lastError: j.lastError,
          attempts: j.attempts,
        })),
        reconciliation:
          app.deps.payments.name === 'stripe'
            ? {
                lastRunAt: reconcile?.lastFinishedAt?.toISOString() ?? null,
                checked: result?.checked ?? null,
                repaired: result?.repaired ?? null,
                lastError: reconcile?.lastError ?? null,
              }
            : null,
        webhookFailures: failures.map((f) => ({ id: f.id, at: f.createdAt.toISOString(), reason: f.reason, eventId: f.eventId })),
        forgedWebhooks: forged,
      };
    },
  );

  app.post(
    '/api/admin/system/mail/retry',
    {
      schema: {
        tags: ['admin'],
        summary: 'Put every failed message back in the outbox for another round of attempts',
        response: { 200: mailRetryResponseSchema, ...denied },
      },
    },
    async (request) => {
      const retried = await retryFailedMail(db, app.deps.clock.now());
      if (retried > 0) {
        await audit(db, actorOf(request), { action: 'mail.retry', targetType: 'mail', details: { retried } }, app.deps.clock.now());
        app.deps.jobs.kick('mail-dispatch');
      }
      return {
        retried,
        message: retried === 0 ? 'No failed messages to retry.' : retried === 1 ? '1 message will be sent again.' : `${retried} messages will be sent again.`,
      };
    },
  );
};
