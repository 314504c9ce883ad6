import { desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '@shared/schemas/admin';
import type { DbOrTx } from '../../db/client';
import { auditLog, users } from '../../db/schema';

export interface AuditInput {
  action: string;
  targetType?: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
}

/**
 * Records who changed what, when. Called inside the same transaction as the change itself, so an
 * entry exists exactly when the change does.
 */
/** Who made a change: the signed-in admin's user id, or null for the system (jobs, webhooks). */
export type ActorId = number | null;

/** The actor of a request: its signed-in user, if any. */
export const actorOf = (request: { auth?: { userId: number } | null }): ActorId => request.auth?.userId ?? null;

export async function audit(db: DbOrTx, actorId: ActorId, entry: AuditInput, now: Date): Promise<void> {
  await db.insert(auditLog).values({
    actorId,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    details: entry.details ?? null,
    createdAt: now,
  });
}

export async function listAudit(db: DbOrTx, limit = 100): Promise<AuditEntry[]> {
  const rows = await db
    .select({
      id: auditLog.id,
      actor: users.username,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
