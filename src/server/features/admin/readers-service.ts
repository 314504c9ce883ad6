import { asc, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import type { AdminMessage, AdminSubscriber, AdminUser, MessageList } from '@shared/schemas/admin';
import type { Db, DbOrTx } from '../../db/client';
import { contactMessages, newsletterSubscribers, purchases, users } from '../../db/schema';
import { qualified } from '../../db/qualified';
import { notFound } from '../../platform/errors';
import { audit, type ActorId } from '../../platform/audit';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toMessage = (m: typeof contactMessages.$inferSelect): AdminMessage => ({ ...m, createdAt: m.createdAt.toISOString(), readAt: iso(m.readAt) });

export async function listMessages(db: DbOrTx, filter: 'all' | 'unread' | undefined): Promise<MessageList> {
  const rows = await db
    .select()
    .from(contactMessages)
    .where(filter === 'unread' ? isNull(contactMessages.readAt) : undefined)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(500);
  const [{ n }] = await db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt));
  return { items: rows.map(toMessage), unread: Number(n) };
}

export function markMessageRead(db: Db, id: number, read: boolean, actorId: ActorId, now: Date): Promise<AdminMessage> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(contactMessages)
      // Marking read twice keeps the first time it was read.
      .set({ readAt: read ? sql`coalesce(${contactMessages.readAt}, ${now.toISOString()}::timestamptz)` : null })
      .where(eq(contactMessages.id, id))
      .returning();
    if (!row) throw notFound('Message not found');
    await audit(tx, actorId, { action: read ? 'message.read' : 'message.unread', targetType: 'contact_message', targetId: row.id }, now);
    return toMessage(row);
  });
}

const subscriberColumns = {
  id: newsletterSubscribers.id,
  email: newsletterSubscribers.email,
  name: newsletterSubscribers.name,
  subscribedAt: newsletterSubscribers.subscribedAt,
  unsubscribedAt: newsletterSubscribers.unsubscribedAt,
  state: newsletterSubscribers.state,
  source: newsletterSubscribers.source,
};

export async function listSubscribers(db: DbOrTx): Promise<AdminSubscriber[]> {
  const rows = await db.select(subscriberColumns).from(newsletterSubscribers).orderBy(desc(newsletterSubscribers.subscribedAt));
  return rows.map((r) => ({ ...r, subscribedAt: r.subscribedAt.toISOString(), unsubscribedAt: iso(r.unsubscribedAt) }));
}

/**
 * Every address that has not unsubscribed, oldest first, as rows for the CSV export, each with its state
 * (only 'confirmed' may be sent news) and source; the export itself is audited.
 */
export async function exportSubscribers(db: DbOrTx, actorId: ActorId, now: Date) {
  const rows = await db
    .select(subscriberColumns)
    .from(newsletterSubscribers)
    .where(ne(newsletterSubscribers.state, 'unsubscribed'))
    .orderBy(asc(newsletterSubscribers.subscribedAt));
  await audit(db, actorId, { action: 'subscribers.export', targetType: 'newsletter', details: { rows: rows.length } }, now);
  return rows;
}

export async function listUsers(db: DbOrTx): Promise<AdminUser[]> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      displayName: users.displayName,
      role: users.role,
      isSubscribed: users.isSubscribed,
      createdAt: users.createdAt,
      purchases: sql<number>`(select count(*) from ${purchases} where ${qualified(purchases.userId)} = ${qualified(users.id)})`.mapWith(Number),
    })
    .from(users)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(1000);
  return rows.map((r) => ({ ...r, role: r.role as Role, createdAt: r.createdAt.toISOString() }));
}
