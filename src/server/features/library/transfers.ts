/**
 * The one transfer a download link may serve (decision 0019). The row is written when the link is issued
 * (the record that a download was spent); the first request that sends bytes claims it for the file version
 * it gets; later requests may only continue that transfer with Range requests for the same version; a
 * response that reaches the file's last byte and is sent in full closes it for good.
 */
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { preparedPerDatabase } from '../../db/prepared';
import { downloadTransfers } from '../../db/schema';
import { DOWNLOAD_LINK_TTL_MS } from './download-link';

export const LINK_USED_MESSAGE =
  'This download link has already been used. Each link serves one download; an interrupted download can only be resumed from where it stopped.';

export async function recordIssuedLink(
  db: DbOrTx,
  link: { linkId: string; purchaseId: number; userId: number; format: string; assetId: number; now: Date },
): Promise<void> {
  await db.insert(downloadTransfers).values({
    linkId: link.linkId,
    purchaseId: link.purchaseId,
    userId: link.userId,
    format: link.format,
    assetId: link.assetId,
    issuedAt: link.now,
  });
}

export interface OpenLink {
  purchaseId: number;
  linkId: string;
  assetId: number;
  /** Epoch milliseconds: the link's own lifetime, the resume window of decision 0019. */
  expiresAt: number;
}

/**
 * The reader's links whose one transfer has not reached the file's last byte and which still live: what
 * the library offers to resume from the same row (issue 25 point 4). The newest link of each purchase.
 */
export async function openLinks(db: DbOrTx, userId: number, purchaseIds: number[], now: Date): Promise<Map<number, OpenLink>> {
  if (purchaseIds.length === 0) return new Map();
  const rows = await db
    .select({ purchaseId: downloadTransfers.purchaseId, linkId: downloadTransfers.linkId, assetId: downloadTransfers.assetId, issuedAt: downloadTransfers.issuedAt })
    .from(downloadTransfers)
    .where(
      and(
        eq(downloadTransfers.userId, userId),
        inArray(downloadTransfers.purchaseId, purchaseIds),
        isNull(downloadTransfers.completedAt),
        isNotNull(downloadTransfers.assetId),
        gt(downloadTransfers.issuedAt, new Date(now.getTime() - DOWNLOAD_LINK_TTL_MS)),
      ),
    )
    .orderBy(desc(downloadTransfers.issuedAt));
  const links = new Map<number, OpenLink>();
  for (const r of rows) {
    if (links.has(r.purchaseId)) continue;
    links.set(r.purchaseId, { purchaseId: r.purchaseId, linkId: r.linkId, assetId: r.assetId!, expiresAt: r.issuedAt.getTime() + DOWNLOAD_LINK_TTL_MS });
  }
  return links;
}

export type TransferStep = 'claimed' | 'resumed' | 'used' | 'unknown';

/** A link's first claim of its transfer, prepared: every transfer waits for it (db/prepared.ts). */
const claimQuery = preparedPerDatabase((db) =>
  db
    .update(downloadTransfers)
    // Placeholders go in as SQL: the builder's types take them in a WHERE but not in SET.
    .set({
      startedAt: sql`${sql.placeholder('now')}`,
      lastRequestAt: sql`${sql.placeholder('now')}`,
      etag: sql`${sql.placeholder('etag')}`,
      size: sql`${sql.placeholder('size')}`,
      requests: sql`${downloadTransfers.requests} + 1`,
    })
    .where(and(eq(downloadTransfers.linkId, sql.placeholder('linkId')), isNull(downloadTransfers.startedAt)))
    .returning({ linkId: downloadTransfers.linkId })
    .prepare('claim_transfer'),
);

/**
 * Decides whether this request may send bytes. `ranged` is whether the answer will be a partial one (a
 * Range the server honours, If-Range matching). Two first requests racing: the conditional update lets one
 * claim the link; the other is then judged as a continuation.
 */
export async function stepTransfer(
  db: DbOrTx,
  input: { linkId: string; etag: string; size: number; ranged: boolean; now: Date },
): Promise<TransferStep> {
  const [claimed] = await claimQuery(db).execute({ linkId: input.linkId, now: input.now, etag: input.etag, size: input.size });
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

/** One row's open link, if its transfer is unfinished and the link still lives. */
export async function findOpenLink(db: DbOrTx, userId: number, purchaseId: number, now: Date): Promise<OpenLink | null> {
  return (await openLinks(db, userId, [purchaseId], now)).get(purchaseId) ?? null;
}
