import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { broadcastRecipients, broadcasts, newsletterSubscribers } from '../../db/schema';
import { audiencePage } from './audience';
import { BROADCAST_KIND, broadcastMail } from './broadcast-mail';
import { BROADCAST_SEND_JOB, siteTitleOf } from './broadcasts';
import { unsubscribeUrl } from './unsubscribe-token';

/** Addresses listed per transaction, and recipients handed to the outbox per transaction. */
export const LIST_BATCH = 1000;
export const HAND_OFF_BATCH = 200;
/** Mails one instance's send run keeps in flight on PostgreSQL. */
export const PARALLEL_SENDERS = 4;

/**
 * A send run (decision 0077). It walks the audience in id order and writes one recipient row per address
 * (the primary key makes a second row impossible) and its cursor in the same transaction; then it claims
 * queued recipients in batches (FOR UPDATE SKIP LOCKED) and, per batch in one transaction, queues their
 * mails in the outbox and marks them handed. A run killed anywhere loses its open transaction and nothing
 * else: the next run (this job after its lease, or any other instance) lists on from the cursor and hands
 * off what is still queued. Memory holds one batch at a time.
 */
export async function runBroadcastSend(deps: AppDeps, broadcastId: number, sendAtIso: string) {
  const { db } = deps.database;
  const now = deps.clock.now();
  const [row] = await db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
  if (!row || row.sendAt?.toISOString() !== sendAtIso) return { skipped: 'not-scheduled-for-this-time' };
  if (row.status === 'scheduled') {
    await db
      .update(broadcasts)
      .set({ status: 'sending', startedAt: now })
      .where(and(eq(broadcasts.id, broadcastId), eq(broadcasts.status, 'scheduled')));
    const [fresh] = await db.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, broadcastId));
    // Cancelled in the moment between the read and the update.
    if (fresh?.status !== 'sending') return { skipped: fresh?.status ?? 'gone' };
  } else if (row.status !== 'sending') {
    return { skipped: row.status };
  }

  await listRecipients(deps, broadcastId);
  const handed = await handOff(deps, broadcastId, row);
  // The sending instance delivers too, beside every instance's mail-dispatch: the outbox's one-at-a-time
  // claims let them share the list without a second copy. On PostgreSQL it keeps several mails in flight
  // at once (a mail spends most of its time waiting on the mail server); PGlite has one connection.
  if (deps.mailer.deliversMail) {
    const senders = deps.database.kind === 'postgres' ? PARALLEL_SENDERS : 1;
    const drain = async () => {
      while ((await deps.mailer.dispatchDue(100)) > 0);
    };
    await Promise.all(Array.from({ length: senders }, drain));
  }
  await db
    .update(broadcasts)
    .set({ status: 'sent', finishedAt: deps.clock.now() })
    .where(and(eq(broadcasts.id, broadcastId), eq(broadcasts.status, 'sending')));
  return { handed };
}

async function listRecipients(deps: AppDeps, broadcastId: number): Promise<void> {
  const { db } = deps.database;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [b] = await tx
        .select({ listed: broadcasts.listed, cursor: broadcasts.listedThrough, audience: broadcasts.audience })
        .from(broadcasts)
        .where(eq(broadcasts.id, broadcastId))
        .for('update');
      if (!b || b.listed) return true;
      const page = await audiencePage(tx, b.audience, b.cursor, LIST_BATCH);
      if (page.length > 0) {
        await tx
          .insert(broadcastRecipients)
          .values(page.map((p) => ({ broadcastId, subscriberId: p.id, email: p.email })))
          .onConflictDoNothing();
      }
      const last = page.length > 0 ? page[page.length - 1].id : b.cursor;
      await tx
        .update(broadcasts)
        .set({ listedThrough: last, listed: page.length < LIST_BATCH })
        .where(eq(broadcasts.id, broadcastId));
      return page.length < LIST_BATCH;
    });
    if (done) return;
  }
}

async function handOff(deps: AppDeps, broadcastId: number, content: typeof broadcasts.$inferSelect): Promise<number> {
  const { db } = deps.database;
  const siteTitle = await siteTitleOf(db);
  const r = broadcastRecipients;
  let handed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const batch = await tx
        .select({ subscriberId: r.subscriberId, email: r.email })
        .from(r)
        .where(and(eq(r.broadcastId, broadcastId), eq(r.status, 'queued')))
        .orderBy(r.subscriberId)
        .limit(HAND_OFF_BATCH)
        .for('update', { skipLocked: true });
      if (batch.length === 0) return 0;
      // An address that left between the listing and its turn is not queued at all.
      const stillIn = new Set(
        (
          await tx
            .select({ id: newsletterSubscribers.id })
            .from(newsletterSubscribers)
            .where(and(inArray(newsletterSubscribers.id, batch.map((b) => b.subscriberId)), eq(newsletterSubscribers.state, 'confirmed')))
        ).map((s) => s.id),
      );
      const gone = batch.filter((b) => !stillIn.has(b.subscriberId)).map((b) => b.subscriberId);
      if (gone.length > 0) {
        await tx.update(r).set({ status: 'suppressed' }).where(and(eq(r.broadcastId, broadcastId), inArray(r.subscriberId, gone)));
      }
      const going = batch.filter((b) => stillIn.has(b.subscriberId));
      const mailIds = await deps.mailer.enqueueMany(
        going.map((recipient) => {
          const mail = broadcastMail(recipient.email, content, {
            siteTitle,
            publicUrl: deps.config.publicUrl,
            unsubscribeLink: unsubscribeUrl(deps.config.publicUrl, deps.secret, recipient.email, broadcastId),
            track: { broadcastId, secret: deps.secret },
          });
          // One Message-ID per recipient of this broadcast: the one copy a killed sender may have had accepted
          // and not yet recorded goes again under the same id, which mail systems take as the same message.
          mail.headers = { ...mail.headers, 'Message-ID': `<broadcast-${broadcastId}-${recipient.subscriberId}@${deps.config.publicUrl.hostname}>` };
          return mail;
        }),
        tx,
      );
      if (going.length > 0) {
        // The whole batch in one statement: pairs of (subscriber, mail) as two arrays read side by side.
        const subscriberIds = `{${going.map((g) => g.subscriberId).join(',')}}`;
        const mailIdList = `{${mailIds.join(',')}}`;
        await tx.execute(sql`update ${r} set status = 'handed', mail_id = pair.mail_id
          from unnest(${subscriberIds}::int[], ${mailIdList}::int[]) as pair(subscriber_id, mail_id)
          where ${r.broadcastId} = ${broadcastId} and ${r.subscriberId} = pair.subscriber_id`);
      }
      return batch.length;
    });
    if (n === 0) return handed;
    handed += n;
  }
}

/** Who may still get a broadcast mail, asked by the outbox just before each one is sent. */
async function stillConfirmed(deps: AppDeps, to: string): Promise<boolean> {
  const [row] = await deps.database.db
    .select({ state: newsletterSubscribers.state })
    .from(newsletterSubscribers)
    .where(sql`lower(${newsletterSubscribers.email}) = lower(${to})`);
  return row?.state === 'confirmed';
}

/** A hard bounce (a permanent 5xx answer): the address is never mailed again, by any broadcast. */
async function markBounced(deps: AppDeps, mail: { id: number; to: string }): Promise<void> {
  const { db } = deps.database;
  await db
    .update(newsletterSubscribers)
    .set({ state: 'bounced', confirmTokenHash: null, confirmTokenExpiresAt: null })
    .where(sql`lower(${newsletterSubscribers.email}) = lower(${mail.to}) and ${newsletterSubscribers.state} in ('confirmed', 'unconfirmed')`);
  await db.update(broadcastRecipients).set({ bounced: true }).where(eq(broadcastRecipients.mailId, mail.id));
}

/** Puts broadcast sending on the job runner and gives broadcast mail its delivery policy in the outbox. */
export function defineBroadcastDelivery(deps: AppDeps): void {
  deps.jobs.define(BROADCAST_SEND_JOB, {
    // Renewed while the run lasts; bounds how long a killed sender's list waits to be taken over.
    leaseMs: 60_000,
    handler: (job) => {
      const { broadcastId, sendAt } = job.payload as { broadcastId: number; sendAt: string };
      return runBroadcastSend(deps, broadcastId, sendAt);
    },
  });
  deps.mailer.setPolicy(BROADCAST_KIND, {
    mayDeliver: (to) => stillConfirmed(deps, to),
    onPermanentFailure: (mail) => markBounced(deps, mail),
  });
}
