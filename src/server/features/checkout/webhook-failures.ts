import { desc, gte, lt, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { forgedWebhooks, webhookFailures } from '../../db/schema';

/** How many failures the table keeps: enough for the admin to see a pattern, bounded against floods. */
const KEEP = 200;

/** How long the hourly counts of forged webhooks are kept. */
const FORGED_KEEP_MS = 30 * 24 * 3_600_000;
const HOUR_MS = 3_600_000;

/**
 * Counts a webhook refused for a bad signature: in the metrics, and in its hour's row (one statement), not
 * in the failures list, which stays for the failures of real, signed events. Never throws.
 */
export async function recordForgedWebhook(deps: AppDeps): Promise<void> {
  deps.metrics.webhookFailures.inc({ reason: 'invalid-signature' });
  try {
    const now = deps.clock.now();
    const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
    const { db } = deps.database;
    const [row] = await db
      .insert(forgedWebhooks)
      .values({ hour, count: 1, lastAt: now })
      .onConflictDoUpdate({
        target: forgedWebhooks.hour,
        set: { count: sql`${forgedWebhooks.count} + 1`, lastAt: sql`greatest(${forgedWebhooks.lastAt}, excluded.last_at)` },
      })
      .returning({ count: forgedWebhooks.count });
    // A new hour began: the oldest hours go.
    if (row.count === 1) await db.delete(forgedWebhooks).where(lt(forgedWebhooks.hour, new Date(hour.getTime() - FORGED_KEEP_MS)));
  } catch (error) {
    deps.log.error({ err: error }, 'could not count a forged webhook');
  }
}

/** Forged webhooks in the last 24 hours and 7 days (whole hours), and when the last one came. */
export async function forgedWebhookSummary(deps: AppDeps): Promise<{ last24Hours: number; last7Days: number; lastAt: string | null }> {
  const now = deps.clock.now().getTime();
  const since = (hours: number) => new Date(Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS);
  const [row] = await deps.database.db
    .select({
      day: sql<number>`coalesce(sum(${forgedWebhooks.count}) filter (where ${forgedWebhooks.hour} >= ${since(24).toISOString()}), 0)::int`,
      week: sql<number>`coalesce(sum(${forgedWebhooks.count}), 0)::int`,
      lastAt: sql<string | null>`max(${forgedWebhooks.lastAt})`,
    })
    .from(forgedWebhooks)
    .where(gte(forgedWebhooks.hour, since(24 * 7)));
  return {
    last24Hours: Number(row?.day ?? 0),
    last7Days: Number(row?.week ?? 0),
    lastAt: row?.lastAt ? new Date(row.lastAt).toISOString() : null,
  };
}

/**
 * Notes a signed webhook that could not be fulfilled: counted in the metrics, kept in the table
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
