import { desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BROADCAST_MESSAGES,
  type Audience,
  type Broadcast,
  type BroadcastCounts,
  type BroadcastSummary,
  type broadcastInputSchema,
  type Suppression,
} from '@shared/schemas/broadcasts';
import type { DbOrTx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { blogPosts, books, broadcastRecipients, broadcasts, mailOutbox, newsletterSubscribers, users } from '../../db/schema';
import { audit, type ActorId } from '../../platform/operations/audit';
import { badRequest, conflict, notFound } from '../../platform/http/errors';
import { getSetting } from '../../platform/operations/settings';
import { sanitizePostHtml } from '../blog/service';
import { audienceSize } from './audience';
import { linksWithClicks } from './broadcast-clicks';
import { BROADCAST_TEST_KIND, broadcastMail } from './broadcast-mail';
import { unsubscribeUrl } from './unsubscribe-token';

type BroadcastInput = z.output<typeof broadcastInputSchema>;
type Row = typeof broadcasts.$inferSelect;

export const BROADCAST_SEND_JOB = 'broadcast-send';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toSummary(row: Row): BroadcastSummary {
  return {
    id: row.id,
    subject: row.subject,
    previewText: row.previewText,
    audience: row.audience,
    postId: row.postId,
    status: row.status,
    sendAt: iso(row.sendAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listBroadcasts(db: DbOrTx): Promise<BroadcastSummary[]> {
  const rows = await db.select().from(broadcasts).orderBy(desc(broadcasts.createdAt), desc(broadcasts.id)).limit(200);
  return rows.map(toSummary);
}

/** What happened to each recipient, read from their rows and the outbox rows their mails became. */
export async function broadcastCounts(db: DbOrTx, id: number): Promise<BroadcastCounts> {
  const r = broadcastRecipients;
  const [row] = await db
    .select({
      recipients: sql<number>`count(*)::int`,
      sent: sql<number>`count(*) filter (where ${mailOutbox.status} = 'sent')::int`,
      waiting: sql<number>`count(*) filter (where ${r.status} = 'queued' or ${mailOutbox.status} in ('pending', 'kept'))::int`,
      failed: sql<number>`count(*) filter (where ${mailOutbox.status} = 'failed' and not ${r.bounced})::int`,
      bounced: sql<number>`count(*) filter (where ${r.bounced})::int`,
      suppressed: sql<number>`count(*) filter (where ${r.status} = 'suppressed' or ${mailOutbox.status} = 'suppressed')::int`,
      unsubscribed: sql<number>`count(*) filter (where ${r.unsubscribedAt} is not null)::int`,
    })
    .from(r)
    .leftJoin(mailOutbox, eq(mailOutbox.id, r.mailId))
    .where(eq(r.broadcastId, id));
  const n = (v: number | undefined) => Number(v ?? 0);
  return {
    recipients: n(row?.recipients),
    sent: n(row?.sent),
    waiting: n(row?.waiting),
    failed: n(row?.failed),
    bounced: n(row?.bounced),
    suppressed: n(row?.suppressed),
    unsubscribed: n(row?.unsubscribed),
  };
}

async function findBroadcast(db: DbOrTx, id: number, lock = false): Promise<Row> {
  const query = db.select().from(broadcasts).where(eq(broadcasts.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(BROADCAST_MESSAGES.notFound);
  return row;
}

export async function getBroadcast(db: DbOrTx, id: number, publicUrl: URL): Promise<Broadcast> {
  const row = await findBroadcast(db, id);
  const counts = await broadcastCounts(db, id);
  // Before the send the audience is counted as it stands; once listed, it is who the mail went to.
  const size = row.status === 'draft' || row.status === 'scheduled' ? await audienceSize(db, row.audience) : counts.recipients;
  return { ...toSummary(row), body: row.body, audienceSize: size, counts, links: await linksWithClicks(db, id, row.body, publicUrl) };
}

/** The stored form: the body cleaned like a post's, the audience's book and the post checked to exist. */
async function prepare(db: DbOrTx, input: BroadcastInput) {
  const body = sanitizePostHtml(input.body);
  if (!body.trim()) throw badRequest(BROADCAST_MESSAGES.body, { body: BROADCAST_MESSAGES.body });
  if (input.audience.kind === 'owners' || input.audience.kind === 'pre-order') {
    const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, input.audience.bookId));
    if (!book) throw badRequest(BROADCAST_MESSAGES.bookMissing, { bookId: BROADCAST_MESSAGES.bookMissing });
  }
  if (input.postId !== null) {
    const [post] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, input.postId));
    if (!post) throw badRequest(BROADCAST_MESSAGES.post, { postId: BROADCAST_MESSAGES.post });
  }
  return { subject: input.subject, previewText: input.previewText, body, audience: input.audience as Audience, postId: input.postId };
}

export async function createBroadcast(db: DbOrTx, input: BroadcastInput, actorId: ActorId, now: Date, publicUrl: URL): Promise<Broadcast> {
  const values = await prepare(db, input);
  const [row] = await db
    .insert(broadcasts)
    .values({ ...values, createdBy: actorId, createdAt: now, updatedAt: now })
    .returning({ id: broadcasts.id });
  await audit(db, actorId, { action: 'broadcast.create', targetType: 'broadcast', targetId: row.id, details: { subject: values.subject } }, now);
  return getBroadcast(db, row.id, publicUrl);
}

/** Only a draft changes: what is scheduled or on its way is what the author approved. */
export async function updateBroadcast(db: DbOrTx, id: number, input: BroadcastInput, actorId: ActorId, now: Date, publicUrl: URL): Promise<Broadcast> {
  await findBroadcast(db, id);
  const values = await prepare(db, input);
  const rows = await db
    .update(broadcasts)
    .set({ ...values, updatedAt: now })
    .where(sql`${broadcasts.id} = ${id} and ${broadcasts.status} = 'draft'`)
    .returning({ id: broadcasts.id });
  if (rows.length === 0) throw conflict(BROADCAST_MESSAGES.notDraft);
  await audit(db, actorId, { action: 'broadcast.update', targetType: 'broadcast', targetId: id, details: { subject: values.subject } }, now);
  return getBroadcast(db, id, publicUrl);
}

/**
 * Schedules the send (now, or at `sendAt`) and puts it on the job runner in the same transaction. The job
 * carries the moment it was scheduled for, so a send cancelled and scheduled again leaves the old job
 * nothing to do.
 */
export async function sendBroadcast(deps: AppDeps, id: number, sendAtIso: string | undefined, actorId: ActorId): Promise<Broadcast> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const sendAt = sendAtIso ? new Date(sendAtIso) : now;
  if (sendAtIso && sendAt.getTime() <= now.getTime()) throw badRequest(BROADCAST_MESSAGES.sendAtPast, { sendAt: BROADCAST_MESSAGES.sendAtPast });
  await db.transaction(async (tx) => {
    const row = await findBroadcast(tx, id, true);
    if (row.status !== 'draft') throw conflict(BROADCAST_MESSAGES.notDraft);
    if ((await audienceSize(tx, row.audience)) === 0) throw badRequest(BROADCAST_MESSAGES.emptyAudience, { audience: BROADCAST_MESSAGES.emptyAudience });
    await tx.update(broadcasts).set({ status: 'scheduled', sendAt, updatedAt: now }).where(eq(broadcasts.id, id));
    await deps.jobs.enqueue(
      BROADCAST_SEND_JOB,
      { broadcastId: id, sendAt: sendAt.toISOString() },
      { key: `${BROADCAST_SEND_JOB}:${id}:${sendAt.getTime()}:${deps.random.token().slice(0, 12)}`, runAt: sendAt, maxAttempts: 1000 },
      tx,
    );
    await audit(tx, actorId, { action: 'broadcast.send', targetType: 'broadcast', targetId: id, details: { sendAt: sendAt.toISOString() } }, now);
  });
  if (!sendAtIso) deps.jobs.kick();
  return getBroadcast(db, id, deps.config.publicUrl);
}

/** Back to a draft while still scheduled; decided by the update, so a send that has just started wins. */
export async function cancelBroadcast(db: DbOrTx, id: number, actorId: ActorId, now: Date, publicUrl: URL): Promise<Broadcast> {
  await findBroadcast(db, id);
  const rows = await db
    .update(broadcasts)
    .set({ status: 'draft', sendAt: null, updatedAt: now })
    .where(sql`${broadcasts.id} = ${id} and ${broadcasts.status} = 'scheduled'`)
    .returning({ id: broadcasts.id });
  if (rows.length === 0) throw conflict(BROADCAST_MESSAGES.notScheduled);
  await audit(db, actorId, { action: 'broadcast.cancel', targetType: 'broadcast', targetId: id }, now);
  return getBroadcast(db, id, publicUrl);
}

export async function siteTitleOf(db: DbOrTx): Promise<string> {
  const content = await getSetting(db, 'site.content');
  return content?.siteTitle ?? 'What We Owe the Dead';
}

/** What the editor's preview shows: the mail itself, with an example unsubscribe link. */
export async function previewBroadcast(deps: AppDeps, content: { subject: string; previewText: string; body: string }) {
  const mail = broadcastMail('reader@example.com', { ...content, body: sanitizePostHtml(content.body) }, {
    siteTitle: await siteTitleOf(deps.database.db),
    publicUrl: deps.config.publicUrl,
    unsubscribeLink: new URL('/api/newsletter/unsubscribe?email=reader%40example.com&token=preview', deps.config.publicUrl).toString(),
  });
  return { html: mail.html ?? '', text: mail.text };
}

/** The broadcast as a subscriber will get it, to the signed-in author's own address. */
export async function sendTestBroadcast(deps: AppDeps, id: number, userId: number): Promise<{ message: string }> {
  const { db } = deps.database;
  const row = await findBroadcast(db, id);
  const [author] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!author) throw notFound('User not found');
  const mail = broadcastMail(author.email, row, {
    siteTitle: await siteTitleOf(db),
    publicUrl: deps.config.publicUrl,
    unsubscribeLink: unsubscribeUrl(deps.config.publicUrl, deps.secret, author.email),
    kind: BROADCAST_TEST_KIND,
  });
  await deps.mailer.enqueue({ ...mail, subject: `[Test] ${mail.subject}` });
  return { message: `A test was sent to ${author.email}` };
}

/** Every address no broadcast may reach, newest first. */
export async function listSuppressions(db: DbOrTx, limit = 1000): Promise<{ total: number; items: Suppression[] }> {
  const s = newsletterSubscribers;
  const where = sql`${s.state} in ('unsubscribed', 'bounced', 'complained')`;
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(s).where(where);
  const rows = await db
    .select({ email: s.email, state: s.state, unsubscribedAt: s.unsubscribedAt })
    .from(s)
    .where(where)
    .orderBy(desc(s.id))
    .limit(limit);
  return {
    total: Number(count?.n ?? 0),
    items: rows.map((r) => ({ email: r.email, state: r.state as Suppression['state'], since: iso(r.unsubscribedAt) })),
  };
}

/**
 * Marks an address as bounced or complained, whether or not it was subscribed: a complaint about an address
 * that later signs up again must still keep it off every broadcast (the public form never revives these).
 */
export async function suppressAddress(db: DbOrTx, email: string, state: 'bounced' | 'complained'): Promise<void> {
  const s = newsletterSubscribers;
  await db.execute(sql`
    insert into ${s} (email, state, source) values (${email}, ${state}, 'unknown')
    on conflict (lower(email)) do update
      set state = excluded.state, unsubscribed_at = null, confirm_token_hash = null, confirm_token_expires_at = null`);
  await db
    .update(users)
    .set({ isSubscribed: false })
    .where(sql`lower(${users.email}) = lower(${email})`);
}

/**
 * Counts a departure against the broadcast whose link was used. Only a recipient row of that broadcast is
 * marked, so a link edited to name another broadcast counts nothing there.
 */
export async function countUnsubscribe(db: DbOrTx, broadcastId: number, email: string, now: Date): Promise<void> {
  await db
    .update(broadcastRecipients)
    .set({ unsubscribedAt: now })
    .where(
      sql`${broadcastRecipients.broadcastId} = ${broadcastId} and lower(${broadcastRecipients.email}) = lower(${email}) and ${broadcastRecipients.unsubscribedAt} is null`,
    );
}
