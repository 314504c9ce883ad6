/**
 * "Tell owners about this edition" (issue 28 point 5, decision 0091). When the author replaces an e-book or
 * PDF master with the box ticked, a job walks the owners of that format in user-id order, a batch per
 * transaction: each owner gets a notice row (the key makes a resumed or repeated run skip them), one
 * download of the new version waiting, and the notice mail in the outbox, all in that transaction.
 */
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { formatLabel } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { books, editionNotices, newsletterSubscribers, purchases, users } from '../../db/schema';
import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';
import { owned } from './ownership';

export const EDITION_NOTICE_JOB = 'edition-notice';
export const EDITION_NOTICE_KIND = 'edition-notice';
export const NOTICE_BATCH = 200;

interface NoticePayload {
  bookId: number;
  format: 'ebook' | 'pdf';
  version: string;
  note: string;
}

const ownerRows = (bookId: number, format: string) =>
  and(eq(purchases.bookId, bookId), eq(purchases.format, format), eq(purchases.status, 'completed'), owned);

/** How many readers own this format of the book: whom a notice will reach. */
export async function countOwners(db: DbOrTx, bookId: number, format: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(distinct ${purchases.userId})::int` }).from(purchases).where(ownerRows(bookId, format));
  return Number(row?.n ?? 0);
}

/** Puts the notice on the job runner; one job per book, format and version, whoever asks twice. */
export async function queueEditionNotice(deps: AppDeps, payload: NoticePayload): Promise<number> {
  const owners = await countOwners(deps.database.db, payload.bookId, payload.format);
  if (owners === 0) return 0;
  await deps.jobs.enqueue(EDITION_NOTICE_JOB, payload, { key: `${EDITION_NOTICE_JOB}:${payload.bookId}:${payload.format}:${payload.version}` });
  deps.jobs.kick();
  return owners;
}

export function editionNoticeMail(input: { to: string; name: string; title: string; format: string; note: string; publicUrl: URL }): MailMessage {
  const label = formatLabel(input.format);
  const library = new URL('/profile#library', input.publicUrl).toString();
  const lead = `The author has published a new edition of the ${label} of ${input.title}. One download of the new version is waiting in your library:`;
  const after = 'The download can be used once, on one device. Reading in the browser never uses it.';
  const text = [`Hello ${input.name},`, '', lead, library, ...(input.note ? ['', 'A note from the author:', input.note] : []), '', after].join('\n');
  const paragraphs = (words: string) =>
    words
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeMarkup(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:Georgia,serif;line-height:1.6">
<p>Hello ${escapeMarkup(input.name)},</p><p>${escapeMarkup(lead)} <a href="${escapeMarkup(library)}">your library</a>.</p>
${input.note ? `<p><strong>A note from the author:</strong></p><blockquote style="margin:0 0 0 12px;padding-left:12px;border-left:3px solid #b3141c">${paragraphs(input.note)}</blockquote>` : ''}
<p>${escapeMarkup(after)}</p></body></html>`;
  return { to: input.to, subject: `A new edition of ${input.title} (${label})`, text, html, kind: EDITION_NOTICE_KIND };
}

/** One run of the notice job: batches until every owner has a notice row. */
export async function runEditionNotice(deps: AppDeps, payload: NoticePayload): Promise<{ told: number }> {
  const { db } = deps.database;
  const [book] = await db.select({ title: books.title }).from(books).where(eq(books.id, payload.bookId));
  if (!book) return { told: 0 };
  let cursor = 0;
  let told = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const owners = await tx
        .selectDistinct({ userId: purchases.userId, email: users.email, name: sql<string>`coalesce(${users.displayName}, ${users.username})` })
        .from(purchases)
        .innerJoin(users, eq(users.id, purchases.userId))
        .where(and(ownerRows(payload.bookId, payload.format), gt(purchases.userId, cursor)))
        .orderBy(purchases.userId)
        .limit(NOTICE_BATCH);
      if (owners.length === 0) return { size: 0, last: cursor, told: 0 };
      const now = deps.clock.now();
      const fresh = await tx
        .insert(editionNotices)
        .values(owners.map((o) => ({ bookId: payload.bookId, format: payload.format, version: payload.version, userId: o.userId, notifiedAt: now })))
        .onConflictDoNothing()
        .returning({ userId: editionNotices.userId });
      const freshIds = fresh.map((f) => f.userId);
      if (freshIds.length > 0) {
        // One download of the new version waits: a spent download of the owner's first row of the format
        // is given back the way the author's "Grant another download" gives it (the transfer record of the
        // spent one stays); an unspent one already leads to the new file, so nobody ends up with two.
        await tx.execute(sql`
          update ${purchases} set download_count = 0, download_used = false, max_downloads = greatest(max_downloads, 1)
           where download_count >= max_downloads
             and id in (select min(id) from ${purchases}
                         where book_id = ${payload.bookId} and format = ${payload.format} and status = 'completed'
                           and kind in ('paid', 'included', 'gift_claim', 'free') and user_id in (${sql.join(freshIds.map((id) => sql`${id}`), sql`, `)})
                         group by user_id)`);
        for (const owner of owners.filter((o) => freshIds.includes(o.userId))) {
          await deps.mailer.enqueue(
            editionNoticeMail({ to: owner.email, name: owner.name, title: book.title, format: payload.format, note: payload.note, publicUrl: deps.config.publicUrl }),
            tx,
          );
        }
      }
      return { size: owners.length, last: owners[owners.length - 1].userId, told: freshIds.length };
    });
    told += batch.told;
    cursor = batch.last;
    if (batch.size < NOTICE_BATCH) return { told };
  }
}

/** "Updated" beside these library rows: a notice the owner has not downloaded since. */
export async function updatedFormats(db: DbOrTx, userId: number): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ bookId: editionNotices.bookId, format: editionNotices.format })
    .from(editionNotices)
    .where(and(eq(editionNotices.userId, userId), isNull(editionNotices.downloadedAt)));
  return new Set(rows.map((r) => `${r.bookId}:${r.format}`));
}

/** A download of the format (in the caller's transaction) takes "Updated" away. */
export async function markEditionDownloaded(tx: DbOrTx, userId: number, bookId: number, format: string, now: Date): Promise<void> {
  await tx
    .update(editionNotices)
    .set({ downloadedAt: now })
    .where(and(eq(editionNotices.userId, userId), eq(editionNotices.bookId, bookId), eq(editionNotices.format, format), isNull(editionNotices.downloadedAt)));
}

/**
 * The notice is about something the reader bought, so leaving the newsletter does not stop it; an address
 * that bounced hard or complained is not mailed (the mail would not arrive, or is unwanted as such).
 */
async function mayReceiveNotice(deps: AppDeps, to: string): Promise<boolean> {
  const [row] = await deps.database.db
    .select({ state: newsletterSubscribers.state })
    .from(newsletterSubscribers)
    .where(and(sql`lower(${newsletterSubscribers.email}) = lower(${to})`, inArray(newsletterSubscribers.state, ['bounced', 'complained'])));
  return !row;
}

export function defineEditionNotice(deps: AppDeps): void {
  deps.jobs.define(EDITION_NOTICE_JOB, {
    leaseMs: 2 * 60_000,
    handler: (job) => runEditionNotice(deps, job.payload as NoticePayload),
  });
  deps.mailer.setPolicy(EDITION_NOTICE_KIND, { mayDeliver: (to) => mayReceiveNotice(deps, to) });
}

