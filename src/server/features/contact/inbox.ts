import { eq, sql } from 'drizzle-orm';
import type { AdminMessage } from '@shared/schemas/admin';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import { notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';

/** A stored message as the author's inbox shows it. */
export const toAdminMessage = (m: typeof contactMessages.$inferSelect): AdminMessage => ({
  ...m,
  createdAt: m.createdAt.toISOString(),
  readAt: m.readAt ? m.readAt.toISOString() : null,
});

/** The author marks a message read or unread. */
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
    return toAdminMessage(row);
  });
}
