import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { CURRENCY, DEFAULT_MAX_DOWNLOADS, formatLabel, isDigitalFormat } from '@shared/constants';
import {
  GIFT_CLAIM_MESSAGES,
  GIFT_MESSAGES,
  type GiftClaimResult,
  type GiftStatus,
  type GiftSummary,
  type GiftView,
  sendAtError,
} from '@shared/schemas/gifts';
import { type CheckoutRequest } from '@shared/schemas/checkout';
import { preOrderNotice } from '@shared/schemas/pre-orders';
import type { DbOrTx } from '../../db/client';
import { books, checkoutSessions, gifts, purchases, users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { releaseState } from '../pre-orders/service';
import { giftMail } from './templates';

export const GIFT_SEND_JOB = 'gift-send';
/** A buyer may send the same gift again at most this often (the recipient's inbox is not a target). */
export const GIFT_RESEND_INTERVAL_MS = 10 * 60_000;

export type CheckoutGift = NonNullable<(typeof checkoutSessions.$inferInsert)['gift']>;
type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

/** Checks the gift part of a checkout against the format and the clock; null when it is no gift. */
export function prepareGift(input: CheckoutRequest, now: Date): CheckoutGift | null {
  const gift = input.gift;
  if (!gift) return null;
  if (!isDigitalFormat(input.format)) throw badRequest(GIFT_MESSAGES.digitalOnly, { format: GIFT_MESSAGES.digitalOnly });
  const sendAt = gift.sendAt ?? undefined;
  const past = sendAtError(sendAt, now);
  if (past) throw badRequest(past, { sendAt: past });
  return {
    recipientName: gift.recipientName,
    recipientEmail: gift.recipientEmail,
    message: gift.message ?? null,
    sendAt: sendAt ? new Date(sendAt).toISOString() : null,
  };
}

/** The buyer's row for a gift: paid for, never owned, so it carries no download. */
export const giftPurchaseFields = (session: Pick<CheckoutSessionRow, 'gift'>) =>
  session.gift ? { kind: 'gift' as const, maxDownloads: 0 } : {};

/** Records the gift of a fulfilled checkout and schedules its mail, in the fulfilment's transaction. */
export async function recordGift(deps: AppDeps, tx: DbOrTx, session: CheckoutSessionRow, purchaseId: number) {
  const gift = session.gift;
  if (!gift) return;
  const [row] = await tx
    .insert(gifts)
    .values({
      purchaseId,
      recipientName: gift.recipientName,
      recipientEmail: gift.recipientEmail,
      message: gift.message,
      sendAt: gift.sendAt ? new Date(gift.sendAt) : null,
      createdAt: deps.clock.now(),
    })
    .returning({ id: gifts.id, sendAt: gifts.sendAt });
  await scheduleSend(deps, tx, row.id, 1, row.sendAt ?? deps.clock.now());
}

async function scheduleSend(deps: AppDeps, tx: DbOrTx, giftId: number, seq: number, runAt: Date) {
  await deps.jobs.enqueue(GIFT_SEND_JOB, { giftId, seq }, { key: `${GIFT_SEND_JOB}:${giftId}:${seq}`, runAt }, tx);
}

const giftColumns = {
  id: gifts.id,
  recipientName: gifts.recipientName,
  recipientEmail: gifts.recipientEmail,
  message: gifts.message,
  sendAt: gifts.sendAt,
  sendCount: gifts.sendCount,
  sentAt: gifts.sentAt,
  lastSentAt: gifts.lastSentAt,
  claimedAt: gifts.claimedAt,
  purchaseId: purchases.id,
  purchaseStatus: purchases.status,
  buyerId: purchases.userId,
  bookId: purchases.bookId,
  format: purchases.format,
  orderReference: purchases.orderReference,
  title: books.title,
  coverImage: books.coverImage,
  buyerName: sql<string>`coalesce(nullif(trim(${users.displayName}), ''), ${users.username})`,
};

function selectGift(db: DbOrTx) {
  return db
    .select(giftColumns)
    .from(gifts)
    .innerJoin(purchases, eq(purchases.id, gifts.purchaseId))
    .innerJoin(books, eq(books.id, purchases.bookId))
    .innerJoin(users, eq(users.id, purchases.userId));
}

const isRefunded = (status: string) => status !== 'completed';

/**
 * The send job: mails the recipient a fresh claim link. The job carries the number of the send it is;
 * the conditional update lets only the first run of that number through, so a retried run mails nobody
 * twice. A refunded or already claimed gift is not sent.
 */
export async function sendGift(deps: AppDeps, giftId: number, seq: number) {
  const { clock, random, mailer, config } = deps;
  return deps.database.db.transaction(async (tx) => {
    const [gift] = await selectGift(tx).where(eq(gifts.id, giftId)).limit(1);
    if (!gift) return { skipped: 'missing' };
    if (isRefunded(gift.purchaseStatus)) return { skipped: 'refunded' };
    if (gift.claimedAt) return { skipped: 'claimed' };
    const now = clock.now();
    const token = random.token(24);
    const updated = await tx
      .update(gifts)
      .set({ tokenHash: sha256(token), sendCount: seq, sentAt: gift.sentAt ?? now, lastSentAt: now })
      .where(and(eq(gifts.id, giftId), sql`${gifts.sendCount} < ${seq}`, isNull(gifts.claimedAt)))
      .returning({ id: gifts.id });
    if (updated.length === 0) return { skipped: 'already-sent' };
    await mailer.enqueue(
      giftMail({
        to: gift.recipientEmail,
        recipientName: gift.recipientName,
        from: gift.buyerName,
        message: gift.message,
        bookTitle: gift.title,
        format: gift.format,
        claimUrl: new URL(`/gift/${token}`, config.publicUrl).toString(),
      }),
      tx,
    );
    return { sent: giftId, seq };
  });
}

function giftStatus(gift: { purchaseStatus: string; claimedAt: Date | null; sentAt: Date | null }): GiftStatus {
  if (isRefunded(gift.purchaseStatus)) return 'refunded';
  if (gift.claimedAt) return 'claimed';
  return gift.sentAt ? 'sent' : 'scheduled';
}

/** The gift status of each of the buyer's gift purchases, by purchase id, for "Your Orders". */
export async function giftSummaries(db: DbOrTx, purchaseIds: number[]): Promise<Map<number, GiftSummary>> {
  if (purchaseIds.length === 0) return new Map();
  const rows = await selectGift(db).where(inArray(gifts.purchaseId, purchaseIds));
  // The recipient's claimed copy is what gets downloaded, never the buyer's gift row.
  const claims = await db
    .select({ purchaseId: gifts.purchaseId, downloadCount: purchases.downloadCount, downloadUsed: purchases.downloadUsed })
    .from(gifts)
    .innerJoin(purchases, eq(purchases.id, gifts.claimPurchaseId))
    .where(inArray(gifts.purchaseId, purchaseIds));
  const downloaded = new Set(claims.filter((c) => c.downloadUsed || c.downloadCount > 0).map((c) => c.purchaseId));
  return new Map(
    rows.map((g) => {
      const status = giftStatus(g);
      return [
        g.purchaseId,
        {
          id: g.id,
          recipientName: g.recipientName,
          recipientEmail: g.recipientEmail,
          status,
          sendAt: g.sendAt?.toISOString() ?? null,
          sentAt: g.sentAt?.toISOString() ?? null,
          claimedAt: g.claimedAt?.toISOString() ?? null,
          canResend: status === 'sent',
          downloaded: downloaded.has(g.purchaseId),
        },
      ];
    }),
  );
}

async function findByToken(db: DbOrTx, token: string) {
  const [gift] = await selectGift(db).where(eq(gifts.tokenHash, sha256(token))).limit(1);
  if (!gift) throw notFound(GIFT_CLAIM_MESSAGES.notFound);
  return gift;
}

/** What the claim link shows: the gift only; claiming is a separate, deliberate POST. */
export async function viewGift(db: DbOrTx, token: string): Promise<GiftView> {
  const gift = await findByToken(db, token);
  return {
    from: gift.buyerName,
    recipientName: gift.recipientName,
    message: gift.message,
    format: gift.format,
    formatLabel: formatLabel(gift.format),
    book: { id: gift.bookId, title: gift.title, coverImage: gift.coverImage },
    state: isRefunded(gift.purchaseStatus) ? 'refunded' : gift.claimedAt ? 'claimed' : 'open',
  };
}

/** The claimed row as it enters the recipient's library, for what comes with its format. */
export interface ClaimedRow {
  id: number;
  userId: number;
  bookId: number;
  format: string;
  currency: string;
  orderReference: string;
  paidByPurchaseId: number;
}

/**
 * Claims the gift into the caller's library, whatever their email. One conditional UPDATE decides: of any
 * number of concurrent claims exactly one finds claimed_at still null (and the paying row not refunded).
 * `withClaim` adds, in the same transaction, what comes with the claimed format (the
 * library decides: the e-book's PDF edition). It is passed in because the library already reads gifts.
 */
export async function claimGift(
  deps: AppDeps,
  token: string,
  userId: number,
  withClaim: (tx: DbOrTx, claimed: ClaimedRow, now: Date) => Promise<unknown> = async () => null,
): Promise<GiftClaimResult> {
  const { db } = deps.database;
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const gift = await findByToken(tx, token);
    if (gift.buyerId === userId) {
      throw new AppError('GIFT_OWN', 409, 'This gift is for someone else: the account that bought it cannot claim it.');
    }
    const won = await tx
      .update(gifts)
      .set({ claimedAt: now, claimedBy: userId })
      .where(
        and(
          eq(gifts.id, gift.id),
          isNull(gifts.claimedAt),
          sql`exists (select 1 from ${purchases} where ${purchases.id} = ${gift.purchaseId} and ${purchases.status} = 'completed')`,
        ),
      )
      .returning({ id: gifts.id });
    if (won.length === 0) {
      const [after] = await tx.select({ status: purchases.status }).from(purchases).where(eq(purchases.id, gift.purchaseId));
      if (after && isRefunded(after.status)) throw new AppError('GIFT_REFUNDED', 409, GIFT_CLAIM_MESSAGES.refunded);
      throw new AppError('GIFT_CLAIMED', 409, GIFT_CLAIM_MESSAGES.claimed);
    }
    const [claim] = await tx
      .insert(purchases)
      .values({
        userId,
        bookId: gift.bookId,
        format: gift.format,
        price: 0,
        currency: CURRENCY,
        purchaseDate: now,
        status: 'completed',
        orderReference: `${gift.orderReference}-GIFT`,
        maxDownloads: DEFAULT_MAX_DOWNLOADS,
        kind: 'gift_claim',
        paidByPurchaseId: gift.purchaseId,
      })
      .returning({ id: purchases.id });
    await tx.update(gifts).set({ claimPurchaseId: claim.id }).where(eq(gifts.id, gift.id));
    await withClaim(
      tx,
      { id: claim.id, userId, bookId: gift.bookId, format: gift.format, currency: CURRENCY, orderReference: `${gift.orderReference}-GIFT`, paidByPurchaseId: gift.purchaseId },
      now,
    );
    deps.log.info({ giftId: gift.id, userId, purchaseId: claim.id }, 'gift claimed');
    // Claiming puts the gift in the library; the release rule decides whether it can be opened yet.
    const release = await releaseState(tx, gift.bookId, now);
    const message = release.released ? GIFT_CLAIM_MESSAGES.claimedNow : `${GIFT_CLAIM_MESSAGES.claimedNow} ${preOrderNotice(release.availableAt)}.`;
    return { success: true, message, redirectTo: '/profile#library' };
  });
}

/**
 * The buyer sends a sent gift again (the recipient lost the mail). The interval is reserved with one
 * conditional UPDATE, so double clicks and parallel requests send one mail.
 */
export async function resendGift(deps: AppDeps, userId: number, giftId: number) {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [gift] = await selectGift(db)
    .where(and(eq(gifts.id, giftId), eq(purchases.userId, userId)))
    .limit(1);
  if (!gift) throw notFound('Gift not found');
  const status = giftStatus(gift);
  if (status === 'refunded') throw new AppError('GIFT_REFUNDED', 409, GIFT_CLAIM_MESSAGES.refunded);
  if (status === 'claimed') throw new AppError('GIFT_CLAIMED', 409, GIFT_CLAIM_MESSAGES.claimed);
  if (status === 'scheduled') throw new AppError('GIFT_NOT_SENT', 409, GIFT_CLAIM_MESSAGES.notSentYet);
  const since = new Date(now.getTime() - GIFT_RESEND_INTERVAL_MS);
  await db.transaction(async (tx) => {
    const reserved = await tx
      .update(gifts)
      .set({ lastSentAt: now })
      .where(and(eq(gifts.id, gift.id), or(isNull(gifts.lastSentAt), lte(gifts.lastSentAt, since))))
      .returning({ sendCount: gifts.sendCount });
    if (reserved.length === 0) throw new AppError('GIFT_RESEND_TOO_SOON', 429, GIFT_CLAIM_MESSAGES.resendTooSoon);
    await scheduleSend(deps, tx, gift.id, reserved[0].sendCount + 1, now);
  });
  deps.jobs.kick();
  return { success: true, message: GIFT_CLAIM_MESSAGES.resent };
}

/** The buyer's gift purchases, newest first (for tests and the admin). */
export async function listBuyerGifts(db: DbOrTx, userId: number) {
  return selectGift(db).where(eq(purchases.userId, userId)).orderBy(desc(gifts.id));
}

/** The dedication of a claimed gift's personal copy: who gave it and their message; null for other rows. */
export async function giftDedication(db: DbOrTx, claimPurchaseId: number): Promise<{ from: string; message: string | null } | null> {
  const [row] = await selectGift(db).where(eq(gifts.claimPurchaseId, claimPurchaseId)).limit(1);
  return row ? { from: row.buyerName, message: row.message } : null;
}
