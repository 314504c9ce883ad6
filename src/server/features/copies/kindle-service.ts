import { and, asc, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import {
  KINDLE_MAX_BYTES,
  KINDLE_SENDS_PER_DAY,
  MAX_KINDLE_DEVICES,
  type KindleDevice,
  type KindleSend,
} from '@shared/schemas/copies';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { books, kindleDevices, kindleSends, mailOutbox, purchases } from '../../db/schema';
import { OWNED_KINDS } from '../../db/purchase-kinds';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import { assertReleased } from '../pre-orders/service';
import { kindleMail } from './templates';

/** Namespace of the per-reader advisory lock that makes the daily count and the insert one step. */
const SEND_LOCK = 724_117_014;

export const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The bare address of MAIL_FROM ("Site <no-reply@x>" -> "no-reply@x"): what Amazon's approved list needs. */
export const senderAddress = (mailFrom: string) => (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();

const toDevice = (r: { id: number; address: string; createdAt: Date }): KindleDevice => ({ ...r, createdAt: r.createdAt.toISOString() });

export async function listDevices(db: Db, userId: number): Promise<KindleDevice[]> {
  const rows = await db
    .select({ id: kindleDevices.id, address: kindleDevices.address, createdAt: kindleDevices.createdAt })
    .from(kindleDevices)
    .where(eq(kindleDevices.userId, userId))
    .orderBy(asc(kindleDevices.id));
  return rows.map(toDevice);
}

/** Saves a device address (already validated and lower-cased). At most three per reader. */
export async function addDevice(db: Db, userId: number, address: string, now: Date): Promise<KindleDevice> {
  return db.transaction(async (tx) => {
    // One reader's device list changes one request at a time, so the limit of three holds.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEND_LOCK + 1}, ${userId})`);
    const existing = await tx.select().from(kindleDevices).where(eq(kindleDevices.userId, userId));
    if (existing.some((d) => d.address === address)) throw conflict('This Kindle address is already saved.', { address: 'This Kindle address is already saved.' });
    if (existing.length >= MAX_KINDLE_DEVICES) {
      const message = `You can save up to ${MAX_KINDLE_DEVICES} Kindle addresses. Remove one to add another.`;
      throw badRequest(message, { address: message });
    }
    const [row] = await tx.insert(kindleDevices).values({ userId, address, createdAt: now }).returning();
    return toDevice(row);
  });
}

export async function removeDevice(db: Db, userId: number, id: number): Promise<void> {
  const removed = await db
    .delete(kindleDevices)
    .where(and(eq(kindleDevices.id, id), eq(kindleDevices.userId, userId)))
    .returning({ id: kindleDevices.id });
  if (!removed.length) throw notFound('Kindle address not found');
}

export async function sendsToday(db: Db, userId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(kindleSends)
    .where(and(eq(kindleSends.userId, userId), gte(kindleSends.createdAt, startOfUtcDay(now))));
  return row?.n ?? 0;
}

/**
 * The library's opener of a reader's own copy of a purchased format (its openOwnedFile). Send to Kindle is
 * handed it by the app rather than importing the library, because the library builds those copies with this
 * feature's personal copies.
 */
export type OpenOwnedFile = (
  deps: AppDeps,
  purchase: { id: number; userId: number; bookId: number; format: string },
  format: string,
) => Promise<{ ok: true; file: { key: string; fileName: string; size: number } } | { ok: false }>;

export const DAILY_LIMIT_MESSAGE = `You have sent ${KINDLE_SENDS_PER_DAY} books to your Kindle today, the most for one day. You can send again after midnight UTC.`;

/**
 * Mails the reader's personal EPUB to one of their Kindle addresses through the outbox. Never touches the
 * download allowance. The daily count and the new record are one locked step, so parallel requests cannot
 * pass the limit.
 */
export async function sendToKindle(
  deps: AppDeps,
  input: { userId: number; bookId: number; address: string },
  openOwnedFile: OpenOwnedFile,
): Promise<{ sendId: number }> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [purchase] = await db
    .select({
      id: purchases.id,
      userId: purchases.userId,
      bookId: purchases.bookId,
      format: purchases.format,
      purchaseDate: purchases.purchaseDate,
      orderReference: purchases.orderReference,
      title: books.title,
    })
    .from(purchases)
    .innerJoin(books, eq(books.id, purchases.bookId))
    .where(
      and(
        eq(purchases.userId, input.userId),
        eq(purchases.bookId, input.bookId),
        eq(purchases.format, 'ebook'),
        eq(purchases.status, 'completed'),
        inArray(purchases.kind, [...OWNED_KINDS]),
      ),
    )
    .orderBy(asc(purchases.id))
    .limit(1);
  if (!purchase) throw forbidden('You have not purchased the e-book of this book');
  // The same release rule as the download and the reading room: a pre-order is not mailed before its day.
  await assertReleased(db, input.bookId, now);

  const devices = await listDevices(db, input.userId);
  if (!devices.some((d) => d.address === input.address)) {
    // A new address is saved on first use, while there is room for it.
    try {
      await addDevice(db, input.userId, input.address, now);
    } catch (error) {
      // A parallel request saved the same address a moment ago: that is what we wanted.
      if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
    }
  }

  const opened = await openOwnedFile(deps, purchase, 'ebook');
  if (!opened.ok) throw notFound('The e-book file is not available yet. Please try again later.');
  const copy = opened.file;
  if (copy.size > KINDLE_MAX_BYTES) {
    throw new AppError('FILE_TOO_LARGE', 413, 'This e-book is larger than the 50 MB Amazon accepts by mail. Download it and use Send to Kindle on the web instead.');
  }

  const sender = senderAddress(deps.config.MAIL_FROM);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEND_LOCK}, ${input.userId})`);
    const [{ n }] = await tx
      .select({ n: count() })
      .from(kindleSends)
      .where(and(eq(kindleSends.userId, input.userId), gte(kindleSends.createdAt, startOfUtcDay(now))));
    if (n >= KINDLE_SENDS_PER_DAY) throw new AppError('KINDLE_DAILY_LIMIT', 429, DAILY_LIMIT_MESSAGE);
    const mail = kindleMail({ to: input.address, sender, title: purchase.title, orderReference: purchase.orderReference, fileKey: copy.key, fileName: copy.fileName });
    const mailId = await deps.mailer.enqueue(mail, tx);
    const [row] = await tx
      .insert(kindleSends)
      .values({ userId: input.userId, purchaseId: purchase.id, address: input.address, mailId, createdAt: now })
      .returning({ id: kindleSends.id });
    return { sendId: row.id };
  });
}

/** Sends of one order, newest first, with the state of their mail (for the admin). */
export async function listSendsOfOrder(db: Db, purchaseId: number): Promise<KindleSend[]> {
  const rows = await db
    .select({ id: kindleSends.id, address: kindleSends.address, createdAt: kindleSends.createdAt, mailStatus: mailOutbox.status })
    .from(kindleSends)
    .leftJoin(mailOutbox, eq(mailOutbox.id, kindleSends.mailId))
    .where(eq(kindleSends.purchaseId, purchaseId))
    .orderBy(desc(kindleSends.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
