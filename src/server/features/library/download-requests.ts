/**
 * "Need another download?" (issue 25 point 4). The one download of a format stays the rule (docs/PRODUCT.md, Downloads); a
 * reader whose download was spent (a lost file, a new device) asks the author, and the admin grants it in
 * one click: the purchase's allowance comes back and the reader is mailed. One pending request per reader,
 * book and format (a partial unique index decides between parallel requests).
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_MAX_DOWNLOADS, DIGITAL_FORMATS } from '@shared/constants';
import {
  type AdminDownloadRequest,
  type DownloadRequest,
  DOWNLOAD_REQUEST_MESSAGES as M,
} from '@shared/schemas/download-requests';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { books, downloadRequests, purchases, users } from '../../db/schema';
import { type ActorId, audit } from '../../platform/operations/audit';
import { AppError, conflict, forbidden, notFound } from '../../platform/http/errors';
import { owned } from './ownership';
import { downloadGrantedMail, downloadRequestMail } from './templates';
import { openLinks } from './transfers';

const readerName = sql<string>`coalesce(nullif(trim(${users.displayName}), ''), ${users.username})`;

const toRequest = (r: { id: number; status: string; requestedAt: Date; grantedAt: Date | null }): DownloadRequest => ({
  id: r.id,
  status: r.status as DownloadRequest['status'],
  requestedAt: r.requestedAt.toISOString(),
  grantedAt: r.grantedAt?.toISOString() ?? null,
});

/** The reader asks for another download of a library row whose one download is spent. */
export async function requestAnotherDownload(deps: AppDeps, userId: number, purchaseId: number): Promise<DownloadRequest> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [row] = await db
    .select({
      id: purchases.id,
      bookId: purchases.bookId,
      format: purchases.format,
      orderReference: purchases.orderReference,
      downloadCount: purchases.downloadCount,
      maxDownloads: purchases.maxDownloads,
      downloadUsed: purchases.downloadUsed,
      title: books.title,
      email: users.email,
      name: readerName,
    })
    .from(purchases)
    .innerJoin(books, eq(books.id, purchases.bookId))
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(
      and(
        eq(purchases.id, purchaseId),
        eq(purchases.userId, userId),
        eq(purchases.status, 'completed'),
        inArray(purchases.format, [...DIGITAL_FORMATS]),
        owned,
      ),
    );
  if (!row) throw forbidden(M.notYours);
  if (!row.downloadUsed && row.downloadCount < row.maxDownloads) throw conflict(M.notUsed);
  if ((await openLinks(db, userId, [purchaseId], now)).has(purchaseId)) throw new AppError('DOWNLOAD_OPEN', 409, M.stillOpen);

  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(downloadRequests)
      .values({ purchaseId, userId, bookId: row.bookId, format: row.format, requestedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new AppError('REQUEST_PENDING', 409, M.alreadyPending);
    await deps.mailer.enqueue(
      downloadRequestMail({
        to: deps.config.AUTHOR_EMAIL,
        reader: { name: row.name, email: row.email },
        title: row.title,
        format: row.format,
        orderReference: row.orderReference,
        publicUrl: deps.config.publicUrl,
      }),
      tx,
    );
    return toRequest(created);
  });
}

/** The reader's pending requests by purchase: the library row says "Request sent" instead of offering it again. */
export async function pendingRequests(db: DbOrTx, userId: number): Promise<Map<number, DownloadRequest>> {
  const rows = await db
    .select()
    .from(downloadRequests)
    .where(and(eq(downloadRequests.userId, userId), eq(downloadRequests.status, 'pending')));
  return new Map(rows.map((r) => [r.purchaseId, toRequest(r)]));
}

const GRANTED_SHOWN = 10;

/** The admin's list: every pending request, oldest first, then the latest granted ones. */
export async function listDownloadRequests(db: DbOrTx): Promise<AdminDownloadRequest[]> {
  const select = () =>
    db
      .select({
        id: downloadRequests.id,
        status: downloadRequests.status,
        requestedAt: downloadRequests.requestedAt,
        grantedAt: downloadRequests.grantedAt,
        purchaseId: downloadRequests.purchaseId,
        orderReference: purchases.orderReference,
        format: downloadRequests.format,
        book: { id: books.id, title: books.title },
        reader: { id: users.id, name: readerName, email: users.email },
      })
      .from(downloadRequests)
      .innerJoin(purchases, eq(purchases.id, downloadRequests.purchaseId))
      .innerJoin(books, eq(books.id, downloadRequests.bookId))
      .innerJoin(users, eq(users.id, downloadRequests.userId));
  const [pending, granted] = await Promise.all([
    select().where(eq(downloadRequests.status, 'pending')).orderBy(asc(downloadRequests.requestedAt), asc(downloadRequests.id)),
    select().where(eq(downloadRequests.status, 'granted')).orderBy(desc(downloadRequests.grantedAt), desc(downloadRequests.id)).limit(GRANTED_SHOWN),
  ]);
  return [...pending, ...granted].map((r) => ({
    ...toRequest(r),
    purchaseId: r.purchaseId,
    orderReference: r.orderReference,
    format: r.format as AdminDownloadRequest['format'],
    book: r.book,
    reader: r.reader,
  }));
}

/**
 * Gives a completed digital purchase its download allowance back (the admin's reset, and a granted request).
 * Returns what it was before, or null when the purchase is not a completed digital one.
 */
export async function restoreDownload(tx: DbOrTx, purchaseId: number) {
  const [before] = await tx
    .select({ format: purchases.format, status: purchases.status, downloadCount: purchases.downloadCount, maxDownloads: purchases.maxDownloads, userId: purchases.userId })
    .from(purchases)
    .where(eq(purchases.id, purchaseId))
    .for('update');
  if (!before) return { ok: false as const, reason: 'missing' as const };
  if (!(DIGITAL_FORMATS as readonly string[]).includes(before.format)) return { ok: false as const, reason: 'physical' as const, before };
  if (before.status !== 'completed') return { ok: false as const, reason: 'not-completed' as const, before };
  await tx
    .update(purchases)
    .set({ downloadCount: 0, downloadUsed: false, maxDownloads: Math.max(before.maxDownloads, DEFAULT_MAX_DOWNLOADS) })
    .where(eq(purchases.id, purchaseId));
  return { ok: true as const, before };
}

/** One click on the admin's list: the download comes back, the request is closed, the reader is mailed. */
export async function grantDownloadRequest(deps: AppDeps, id: number, actorId: ActorId): Promise<AdminDownloadRequest> {
  const { db } = deps.database;
  const now = deps.clock.now();
  await db.transaction(async (tx) => {
    const [won] = await tx
      .update(downloadRequests)
      .set({ status: 'granted', grantedAt: now, grantedBy: actorId })
      .where(and(eq(downloadRequests.id, id), eq(downloadRequests.status, 'pending')))
      .returning();
    if (!won) {
      const [exists] = await tx.select({ id: downloadRequests.id }).from(downloadRequests).where(eq(downloadRequests.id, id));
      throw exists ? conflict(M.alreadyGranted) : notFound(M.notFound);
    }
    const restored = await restoreDownload(tx, won.purchaseId);
    if (!restored.ok) throw conflict('This order was refunded: there is no download to give back.');
    const [reader] = await tx
      .select({ email: users.email, name: readerName, title: books.title })
      .from(users)
      .innerJoin(books, eq(books.id, won.bookId))
      .where(eq(users.id, won.userId));
    await audit(
      tx,
      actorId,
      {
        action: 'download-request.grant',
        targetType: 'purchase',
        targetId: won.purchaseId,
        details: { requestId: id, buyerId: won.userId, format: won.format, previousDownloadCount: restored.before.downloadCount },
      },
      now,
    );
    await deps.mailer.enqueue(
      downloadGrantedMail({ to: reader.email, name: reader.name, title: reader.title, format: won.format, publicUrl: deps.config.publicUrl }),
      tx,
    );
  });
  const all = await listDownloadRequests(db);
  return all.find((r) => r.id === id)!;
}
