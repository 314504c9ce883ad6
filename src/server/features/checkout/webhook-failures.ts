import { desc, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { webhookFailures } from '../../db/schema';

/** How many failures the table keeps: enough for the admin to see a pattern, bounded against floods. */
const KEEP = 200;

/**
 * Notes a webhook that was refused or could not be fulfilled: counted in the metrics, kept in the table
 * the admin's System page reads. Never throws: bookkeeping must not change the webhook's answer.
 */
export async function recordWebhookFailure(
  app: FastifyInstance,
  failure: { reason: string; eventId?: string | null; detail?: string | null },
): Promise<void> {
  app.deps.metrics.webhookFailures.inc({ reason: failure.reason });
  try {
    const { db } = app.deps.database;
    const [row] = await db
      .insert(webhookFailures)
      .values({
        reason: failure.reason,
        eventId: failure.eventId ?? null,
        detail: failure.detail?.slice(0, 300) ?? null,
        createdAt: app.deps.clock.now(),
      })
      .returning({ id: webhookFailures.id });
    if (row.id % 50 === 0) await db.delete(webhookFailures).where(lt(webhookFailures.id, row.id - KEEP));
  } catch (error) {
    app.log.error({ err: error }, 'could not record a webhook failure');
  }
}

export async function recentWebhookFailures(app: FastifyInstance, limit = 10) {
  return app.deps.database.db
    .select()
    .from(webhookFailures)
    .orderBy(desc(webhookFailures.createdAt), desc(webhookFailures.id))
    .limit(limit);
}

export async function webhookFailureCount(app: FastifyInstance, since: Date): Promise<number> {
  const [row] = await app.deps.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookFailures)
    .where(sql`${webhookFailures.createdAt} >= ${since.toISOString()}`);
  return Number(row?.n ?? 0);
}
