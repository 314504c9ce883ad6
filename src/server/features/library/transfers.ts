/**
 * The one transfer a download link may serve (decision 0019). The row is written when the link is issued
 * (the record that a download was spent); the first request that sends bytes claims it for the file version
 * it gets; later requests may only continue that transfer with Range requests for the same version; a
 * response that reaches the file's last byte and is sent in full closes it for good.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { downloadTransfers } from '../../db/schema';

export const LINK_USED_MESSAGE =
  'This download link has already been used. Each link serves one download; an interrupted download can only be resumed from where it stopped.';

export async function recordIssuedLink(
  db: DbOrTx,
  link: { linkId: string; purchaseId: number; userId: number; format: string; now: Date },
): Promise<void> {
  await db.insert(downloadTransfers).values({
    linkId: link.linkId,
    purchaseId: link.purchaseId,
    userId: link.userId,
    format: link.format,
    issuedAt: link.now,
  });
}

export type TransferStep = 'claimed' | 'resumed' | 'used' | 'unknown';

/**
 * Decides whether this request may send bytes. `ranged` is whether the answer will be a partial one (a
 * Range the server honours, If-Range matching). Two first requests racing: the conditional update lets one
 * claim the link; the other is then judged as a continuation.
 */
export async function stepTransfer(
  db: DbOrTx,
  input: { linkId: string; etag: string; size: number; ranged: boolean; now: Date },
): Promise<TransferStep> {
  const [claimed] = await db
    .update(downloadTransfers)
    .set({ startedAt: input.now, lastRequestAt: input.now, etag: input.etag, size: input.size, requests: sql`${downloadTransfers.requests} + 1` })
    .where(and(eq(downloadTransfers.linkId, input.linkId), isNull(downloadTransfers.startedAt)))
    .returning({ linkId: downloadTransfers.linkId });
  if (claimed) return 'claimed';
  const [row] = await db.select().from(downloadTransfers).where(eq(downloadTransfers.linkId, input.linkId)).limit(1);
  if (!row) return 'unknown';
  // A whole-file request after the claim would be a second download; a changed file is not a continuation.
  if (row.completedAt || !input.ranged || row.etag !== input.etag || row.size !== input.size) return 'used';
  const [resumed] = await db
    .update(downloadTransfers)
    .set({ lastRequestAt: input.now, requests: sql`${downloadTransfers.requests} + 1` })
    .where(and(eq(downloadTransfers.linkId, input.linkId), isNull(downloadTransfers.completedAt)))
    .returning({ linkId: downloadTransfers.linkId });
  return resumed ? 'resumed' : 'used';
}

/** Whether the link's transfer is over (a HEAD, which sends no bytes, is still refused then). */
export async function isTransferComplete(db: DbOrTx, linkId: string): Promise<boolean | null> {
  const [row] = await db
    .select({ completedAt: downloadTransfers.completedAt })
    .from(downloadTransfers)
    .where(eq(downloadTransfers.linkId, linkId))
    .limit(1);
  return row ? row.completedAt !== null : null;
}

export async function completeTransfer(db: DbOrTx, linkId: string, now: Date): Promise<void> {
  await db
    .update(downloadTransfers)
    .set({ completedAt: now })
    .where(and(eq(downloadTransfers.linkId, linkId), isNull(downloadTransfers.completedAt)));
}
