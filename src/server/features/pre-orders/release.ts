import { and, eq, inArray, isNull, lt, lte, ne, notExists, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { isDigitalFormat } from '@shared/constants';
import { books, digitalAssets, jobs, purchases, releaseMails, users } from '../../db/schema';
import { fileReadyMail, releaseMail } from './templates';

export const RELEASE_JOB = 'pre-order-release';

/**
 * Puts the release of a book on the job runner: one one-off job at the release moment. A moved date
 * drops the pending job of the old date (one already running checks the date itself and stands down).
 */
export async function scheduleRelease(deps: AppDeps, tx: DbOrTx, bookId: number, releaseAt: Date | null) {
  const now = deps.clock.now();
  await tx
    .delete(jobs)
    .where(
      and(
        eq(jobs.name, RELEASE_JOB),
        sql`${jobs.payload}->>'bookId' = ${String(bookId)}`,
        or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now)),
      ),
    );
  if (!releaseAt) return;
  await deps.jobs.enqueue(
    RELEASE_JOB,
    { bookId, releaseAt: releaseAt.toISOString() },
    { key: `${RELEASE_JOB}:${bookId}:${releaseAt.getTime()}`, runAt: releaseAt },
    tx,
  );
}

/** The digital formats of a book that have a file: what a release can truthfully call ready. */
export async function formatsWithFiles(db: DbOrTx, bookId: number): Promise<Set<string>> {
  const rows = await db.select({ format: digitalAssets.format }).from(digitalAssets).where(eq(digitalAssets.bookId, bookId));
  return new Set(rows.map((r) => r.format));
}

const buyerName = sql<string>`coalesce(nullif(trim(${users.displayName}), ''), ${users.username})`;

/**
 * The release run: tells every pre-order buyer, once, the truth about each format (decision 0056): a
 * digital format whose file is uploaded is "ready to download"; one without a file is "not ready yet, we
 * will email you", and its release_mails row keeps file_ready false until the upload (see
 * announceUploadedFiles). Each purchase mailed gets its row in the same transaction as its mail, so a
 * second run, a moved date or a second instance mails nobody twice. Afterwards the public cache goes (here
 * and on every instance), so the offer flips to InStock at once.
 */
export async function runRelease(deps: AppDeps, bookId: number, releaseAtIso: string) {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [book] = await db.select({ title: books.title, releaseAt: books.releaseAt }).from(books).where(eq(books.id, bookId));
  if (!book?.releaseAt || book.releaseAt.toISOString() !== releaseAtIso) return { skipped: 'date-moved' };
  if (book.releaseAt > now) throw new Error('release run before its time');
  const releaseAt = book.releaseAt;
  const mailed = await db.transaction(async (tx) => {
    const filed = await formatsWithFiles(tx, bookId);
    const ready = (format: string) => !isDigitalFormat(format) || filed.has(format);
    const due = await tx
      .select({ id: purchases.id, userId: purchases.userId, format: purchases.format, email: users.email, name: buyerName })
      .from(purchases)
      .innerJoin(users, eq(users.id, purchases.userId))
      .where(
        and(
          eq(purchases.bookId, bookId),
          // The PDF edition rides with the e-book's line of the mail (decision 0066).
          ne(purchases.format, 'pdf'),
          inArray(purchases.kind, ['paid', 'included', 'gift_claim', 'free']),
          inArray(purchases.status, ['completed', 'shipped']),
          lt(purchases.purchaseDate, releaseAt),
          notExists(tx.select({ one: sql`1` }).from(releaseMails).where(eq(releaseMails.purchaseId, purchases.id))),
        ),
      );
    if (due.length === 0) return 0;
    const taken = await tx
      .insert(releaseMails)
      .values(due.map((p) => ({ purchaseId: p.id, mailedAt: now, fileReady: ready(p.format) })))
      .onConflictDoNothing()
      .returning({ purchaseId: releaseMails.purchaseId });
    const takenIds = new Set(taken.map((t) => t.purchaseId));
    const byUser = groupByUser(due.filter((p) => takenIds.has(p.id)));
    for (const rows of byUser.values()) {
      await deps.mailer.enqueue(
        releaseMail({
          to: rows[0].email,
          name: rows[0].name,
          title: book.title,
          formats: rows.filter((r) => ready(r.format)).map((r) => r.format),
          waiting: rows.filter((r) => !ready(r.format)).map((r) => r.format),
          releaseAt,
          publicUrl: deps.config.publicUrl,
        }),
        tx,
      );
    }
    return byUser.size;
  });
  // A file uploaded between a failed run and its retry: its buyers hear now.
  await announceUploadedFiles(deps, bookId);
  deps.cache.clear();
  deps.log.info({ bookId, mailed }, 'pre-ordered book released');
  return { mailed };
}

function groupByUser<T extends { userId: number }>(rows: T[]): Map<number, T[]> {
  const byUser = new Map<number, T[]>();
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  return byUser;
}

/**
 * After an upload: buyers told at the release that their format was not ready yet are mailed that it is
 * ready to download now, once each (the conditional update of file_ready decides between runs).
 */
export async function announceUploadedFiles(deps: AppDeps, bookId: number): Promise<number> {
  const { db } = deps.database;
  return db.transaction(async (tx) => {
    const filed = await formatsWithFiles(tx, bookId);
    if (filed.size === 0) return 0;
    const waiting = tx
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.bookId, bookId), inArray(purchases.format, [...filed])));
    const flipped = await tx
      .update(releaseMails)
      .set({ fileReady: true })
      .where(and(eq(releaseMails.fileReady, false), inArray(releaseMails.purchaseId, waiting)))
      .returning({ purchaseId: releaseMails.purchaseId });
    if (flipped.length === 0) return 0;
    const rows = await tx
      .select({ userId: purchases.userId, format: purchases.format, email: users.email, name: buyerName, title: books.title })
      .from(purchases)
      .innerJoin(users, eq(users.id, purchases.userId))
      .innerJoin(books, eq(books.id, purchases.bookId))
      .where(inArray(purchases.id, flipped.map((f) => f.purchaseId)));
    const byUser = groupByUser(rows);
    for (const mine of byUser.values()) {
      await deps.mailer.enqueue(
        fileReadyMail({ to: mine[0].email, name: mine[0].name, title: mine[0].title, formats: mine.map((r) => r.format), publicUrl: deps.config.publicUrl }),
        tx,
      );
    }
    return byUser.size;
  });
}

export function defineReleaseJob(deps: AppDeps) {
  deps.jobs.define(RELEASE_JOB, {
    leaseMs: 5 * 60_000,
    handler: (job) => {
      const { bookId, releaseAt } = job.payload as { bookId: number; releaseAt: string };
      return runRelease(deps, bookId, releaseAt);
    },
  });
}
