import { eq, sql } from 'drizzle-orm';
import { POINTS } from '@shared/constants';
import { SUBSCRIBE_CONFIRM_VALIDITY_MS, type SubscriberSource, type SubscriberState } from '@shared/subscribers';
import type { Db, DbOrTx } from '../../db/client';
import { newsletterSubscribers, userActivities, users } from '../../db/schema';
import type { Random } from '../../platform/security/crypto';
import { badRequest, notFound } from '../../platform/http/errors';
import type { Mailer } from '../../platform/mail/mail';
import { confirmUrl, hashConfirmToken } from './confirm-token';
import { asksToConfirm } from './preferences';

// The admin's Settings page reads and sets the confirmation rule through this service.
export { asksToConfirm, setAsksToConfirm } from './preferences';
import { unsubscribeUrl } from './unsubscribe-token';
import { welcomeMail } from './templates';

export interface SubscribeContext {
  db: Db;
  mailer: Mailer;
  publicUrl: URL;
  secret: string;
  siteTitle: string;
  random: Random;
  now: Date;
}

export interface SubscribeResult {
  /** True when this request started (or restarted) the subscription; false when it already existed. */
  subscribed: boolean;
  pointsEarned: number;
}

/** Key that makes the subscription award a once-ever question for the unique index. */
const SUBSCRIBE_DEDUPE_KEY = 'newsletter-subscribe';

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * Subscribes an address. One row per address whatever the case and however many requests race:
 * the insert is decided by the unique index on lower(email), never by a read first. A welcome mail
 * goes out only when this request created (or revived) the subscription, and a signed-in reader
 * earns the subscription points once ever.
 *
 * Double opt-in (decision 0069): unless the admin turned it off, the row starts unconfirmed and the
 * welcome mail carries a single-purpose confirmation link. A row is revived (fresh state, token and
 * mail) when it was unsubscribed, or still unconfirmed with its link expired, so a lost or stale link
 * is mended by signing up again. Bounced and complained addresses are not revived by a form anyone
 * can fill in.
 */
export async function subscribe(
  ctx: SubscribeContext,
  input: { email: string; name?: string; source?: SubscriberSource },
  userId: number | null,
): Promise<SubscribeResult> {
  const email = input.email.trim();
  const name = input.name?.trim() || null;
  const source = input.source ?? 'home';
  return ctx.db.transaction(async (tx) => {
    const confirm = await asksToConfirm(tx);
    const token = confirm ? ctx.random.token() : null;
    const tokenHash = token ? hashConfirmToken(token) : null;
    const expiresAt = token ? new Date(ctx.now.getTime() + SUBSCRIBE_CONFIRM_VALIDITY_MS).toISOString() : null;
    const state = confirm ? 'unconfirmed' : 'confirmed';
    const confirmedAt = confirm ? null : ctx.now.toISOString();
    const inserted = rowsOf<{ id: number }>(
      await tx.execute(sql`
        insert into ${newsletterSubscribers}
          (email, name, user_id, source, state, confirmed_at, confirm_token_hash, confirm_token_expires_at)
        values (${email}, ${name}, ${userId}, ${source}, ${state}, ${confirmedAt}, ${tokenHash}, ${expiresAt})
        on conflict (lower(email)) do update
          set unsubscribed_at = null, subscribed_at = now(),
              state = excluded.state, source = excluded.source, confirmed_at = excluded.confirmed_at,
              confirm_token_hash = excluded.confirm_token_hash,
              confirm_token_expires_at = excluded.confirm_token_expires_at,
              user_id = coalesce(${newsletterSubscribers.userId}, excluded.user_id)
          where ${newsletterSubscribers.state} = 'unsubscribed'
             or (${newsletterSubscribers.state} = 'unconfirmed'
                 and ${newsletterSubscribers.confirmTokenExpiresAt} < ${ctx.now.toISOString()})
        returning id`),
    );
    const subscribed = inserted.length > 0;
    let pointsEarned = 0;
    if (userId !== null) {
      await tx.update(users).set({ isSubscribed: true }).where(eq(users.id, userId));
      const award = await tx
        .insert(userActivities)
        .values({ userId, type: 'newsletter-subscribe', points: POINTS.subscribe, dedupeKey: SUBSCRIBE_DEDUPE_KEY })
        .onConflictDoNothing()
        .returning({ id: userActivities.id });
      if (award.length > 0) pointsEarned = POINTS.subscribe;
    }
    if (subscribed) {
      const link = unsubscribeUrl(ctx.publicUrl, ctx.secret, email);
      const confirmLink = token ? confirmUrl(ctx.publicUrl, token) : null;
      await ctx.mailer.enqueue(welcomeMail(email, ctx.siteTitle, link, confirmLink), tx);
    }
    return { subscribed, pointsEarned };
  });
}

export const CONFIRM_MESSAGES = {
  confirmed: 'Your subscription to the Thriller Circle is confirmed. Thank you!',
  already: 'Your subscription is already confirmed. There is nothing more to do.',
  unknown: 'This confirmation link is not valid. Please use the link from your most recent welcome email, or subscribe again.',
  expired: 'This confirmation link has expired. Please subscribe again on the website to get a new one.',
} as const;

/**
 * Confirms the subscription a confirmation token belongs to. Confirming twice answers 'already'; a token
 * that matches nothing (never issued, replaced by a newer sign-up, or cleared by an unsubscribe) is 404;
 * an expired one 400. Only the button's POST gets here: opening the link in the mail changes nothing.
 */
export async function confirmSubscription(db: Db, token: string, now: Date): Promise<'confirmed' | 'already'> {
  const [row] = await db
    .select({ id: newsletterSubscribers.id, state: newsletterSubscribers.state, expiresAt: newsletterSubscribers.confirmTokenExpiresAt })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.confirmTokenHash, hashConfirmToken(token)));
  if (!row || (row.state !== 'unconfirmed' && row.state !== 'confirmed')) throw notFound(CONFIRM_MESSAGES.unknown);
  if (row.state === 'confirmed') return 'already';
  if (row.expiresAt && row.expiresAt.getTime() < now.getTime()) throw badRequest(CONFIRM_MESSAGES.expired);
  // Decided by the update itself: of two presses at once, one confirms and the other finds it done.
  const updated = await db
    .update(newsletterSubscribers)
    .set({ state: 'confirmed', confirmedAt: now })
    .where(sql`${newsletterSubscribers.id} = ${row.id} and ${newsletterSubscribers.state} = 'unconfirmed'`)
    .returning({ id: newsletterSubscribers.id });
  return updated.length > 0 ? 'confirmed' : 'already';
}

/** Ends a subscription; answers whether an active subscription was found. */
export async function unsubscribe(db: Db, email: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(newsletterSubscribers)
    // The confirmation token goes too: a link from an old mail must not sign the address up again.
    .set({ unsubscribedAt: now, state: 'unsubscribed', confirmTokenHash: null, confirmTokenExpiresAt: null })
    .where(sql`lower(${newsletterSubscribers.email}) = lower(${email}) and ${newsletterSubscribers.state} <> 'unsubscribed'`)
    .returning({ id: newsletterSubscribers.id, userId: newsletterSubscribers.userId });
  for (const row of rows) {
    if (row.userId !== null) await db.update(users).set({ isSubscribed: false }).where(eq(users.id, row.userId));
  }
  return rows.length > 0;
}

/** States that keep an address off the list for good, whatever form it is typed into. */
export const SUPPRESSED_STATES = ['unsubscribed', 'bounced', 'complained'] as const;

/** Where this address stands on the list (any case), or null when it never signed up. */
export async function subscriberState(db: DbOrTx, email: string): Promise<SubscriberState | null> {
  const [row] = await db
    .select({ state: newsletterSubscribers.state })
    .from(newsletterSubscribers)
    .where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`)
    .limit(1);
  return row?.state ?? null;
}

/**
 * Subscribes an address that has just proved itself some other way (the free book's confirmation, decision
 * 0097): a new row starts confirmed; an unconfirmed one is confirmed (its pending link cleared); a confirmed
 * one is left as it is; a suppressed one is never revived. Joins the caller's transaction.
 */
export async function subscribeConfirmed(
  tx: DbOrTx,
  input: { email: string; userId: number; source: SubscriberSource; now: Date },
): Promise<void> {
  const now = input.now.toISOString();
  await tx.execute(sql`
    insert into ${newsletterSubscribers} (email, user_id, source, state, subscribed_at, confirmed_at)
    values (${input.email}, ${input.userId}, ${input.source}, 'confirmed', ${now}, ${now})
    on conflict (lower(email)) do update
      set state = 'confirmed', confirmed_at = excluded.confirmed_at,
          confirm_token_hash = null, confirm_token_expires_at = null,
          user_id = coalesce(${newsletterSubscribers.userId}, excluded.user_id)
      where ${newsletterSubscribers.state} = 'unconfirmed'`);
  // A confirmed row from before may lack its reader; the reader's account says it is subscribed.
  await tx.execute(sql`
    update ${newsletterSubscribers} set user_id = ${input.userId}
     where lower(email) = lower(${input.email}) and user_id is null and state = 'confirmed'`);
  await tx.update(users).set({ isSubscribed: true }).where(eq(users.id, input.userId));
}
