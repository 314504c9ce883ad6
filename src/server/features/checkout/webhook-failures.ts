import { desc, lt, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { webhookFailures } from '../../db/schema';

/** How many failures the table keeps: enough for the admin to see a pattern, bounded against floods. */
const KEEP = 200;

/**
 * Notes a webhook that was refused or could not be fulfilled: counted in the metrics, kept in the table
 * the admin's System page reads. Never throws: bookkeeping must not change the webhook's answer.
 */
export async function recordWebhookFailure(
  deps: AppDeps,
  failure: { reason: string; eventId?: string | null; detail?: string | null },
): Promise<void> {
  deps.metrics.webhookFailures.inc({ reason: failure.reason });
  try {
    const { db } = deps.database;
    const [row] = await db
      .insert(webhookFailures)
      .values({
        reason: failure.reason,
        eventId: failure.eventId ?? null,
        detail: failure.detail?.slice(0, 300) ?? null,
        createdAt: deps.clock.now(),
      })
      .returning({ id: webhookFailures.id });
    if (row.id % 50 === 0) await db.delete(webhookFailures).where(lt(webhookFailures.id, row.id - KEEP));
  } catch (error) {
    deps.log.error({ err: error }, 'could not record a webhook failure');
  }
}

export async function recentWebhookFailures(deps: AppDeps, limit = 10) {
  return deps.database.db
    .select()
    .from(webhookFailures)
    .orderBy(desc(webhookFailures.createdAt), desc(webhookFailures.id))
    .limit(limit);
}

export async function webhookFailureCount(deps: AppDeps, since: Date): Promise<number> {
  const [row] = await deps.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookFailures)
    .where(sql`${webhookFailures.createdAt} >= ${since.toISOString()}`);
  return Number(row?.n ?? 0);
}
