import type { Db } from '../../db/client';
import { conflict, notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';
import { restoreDownload } from './download-requests';

/** Gives the buyer their download allowance for this format back (at least the default allowance). */
export async function resetDownloadAllowance(db: Db, id: number, actorId: ActorId, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const restored = await restoreDownload(tx, id);
    if (!restored.ok && restored.reason === 'missing') throw notFound('Order not found');
    if (!restored.ok && restored.reason === 'physical') throw conflict('Only digital orders have a download allowance');
    if (!restored.ok) throw conflict(`A ${restored.before.status} order cannot be downloaded`);
    const { before } = restored;
    await audit(
      tx,
      actorId,
      {
        action: 'order.reset-download',
        targetType: 'purchase',
        targetId: id,
        details: { buyerId: before.userId, format: before.format, previousDownloadCount: before.downloadCount },
      },
      now,
    );
  });
}
