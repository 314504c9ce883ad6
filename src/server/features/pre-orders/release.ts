import { and, eq, inArray, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { books, jobs, purchases, releaseMails, users } from '../../db/schema';
import { releaseMail } from './templates';

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

/**
 * The release run: tells every pre-order buyer, once. Each purchase mailed gets a release_mails row in
 * the same transaction as its mail, so a second run, a moved date or a second instance mails nobody twice.
 * Afterwards the public cache goes (here and on every instance), so the offer flips to InStock at once.
 */
export async function runRelease(deps: AppDeps, bookId: number, releaseAtIso: string) {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [book] = await db.select({ title: books.title, releaseAt: books.releaseAt }).from(books).where(eq(books.id, bookId));
  if (!book?.releaseAt || book.releaseAt.toISOString() !== releaseAtIso) return { skipped: 'date-moved' };
  if (book.releaseAt > now) throw new Error('release run before its time');
  const releaseAt = book.releaseAt;
  const mailed = await db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: purchases.id,
        userId: purchases.userId,
        format: purchases.format,
        email: users.email,
        name: sql<string>`coalesce(nullif(trim(${users.displayName}), ''), ${users.username})`,
      })
      .from(purchases)
      .innerJoin(users, eq(users.id, purchases.userId))
      .where(
        and(
          eq(purchases.bookId, bookId),
          inArray(purchases.kind, ['paid', 'included', 'gift_claim']),
          inArray(purchases.status, ['completed', 'shipped']),
          lt(purchases.purchaseDate, releaseAt),
          notExists(tx.select({ one: sql`1` }).from(releaseMails).where(eq(releaseMails.purchaseId, purchases.id))),
        ),
      );
    if (due.length === 0) return 0;
    const taken = await tx
      .insert(releaseMails)
      .values(due.map((p) => ({ purchaseId: p.id, mailedAt: now })))
      .onConflictDoNothing()
      .returning({ purchaseId: releaseMails.purchaseId });
    const takenIds = new Set(taken.map((t) => t.purchaseId));
    const byUser = new Map<number, typeof due>();
    for (const p of due) if (takenIds.has(p.id)) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
    for (const rows of byUser.values()) {
      await deps.mailer.enqueue(
        releaseMail({
          to: rows[0].email,
          name: rows[0].name,
          title: book.title,
          formats: rows.map((r) => r.format),
          releaseAt,
          publicUrl: deps.config.publicUrl,
        }),
        tx,
      );
    }
    return byUser.size;
  });
  deps.cache.clear();
  deps.log.info({ bookId, mailed }, 'pre-ordered book released');
  return { mailed };
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
