import { eq, sql } from 'drizzle-orm';
import { POINTS } from '@shared/constants';
import type { Db } from '../../db/client';
import { newsletterSubscribers, userActivities, users } from '../../db/schema';
import type { Mailer } from '../../platform/mail';
import { unsubscribeUrl } from './unsubscribe-token';
import { welcomeMail } from './templates';

export interface SubscribeContext {
  db: Db;
  mailer: Mailer;
  publicUrl: URL;
  secret: string;
  siteTitle: string;
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
 */
export async function subscribe(
  ctx: SubscribeContext,
  input: { email: string; name?: string },
  userId: number | null,
): Promise<SubscribeResult> {
  const email = input.email.trim();
  const name = input.name?.trim() || null;
  return ctx.db.transaction(async (tx) => {
    const inserted = rowsOf<{ id: number }>(
      await tx.execute(sql`
        insert into ${newsletterSubscribers} (email, name, user_id)
        values (${email}, ${name}, ${userId})
        on conflict (lower(email)) do update
          set unsubscribed_at = null, subscribed_at = now(),
              user_id = coalesce(${newsletterSubscribers.userId}, excluded.user_id)
          where ${newsletterSubscribers.unsubscribedAt} is not null
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
      await ctx.mailer.enqueue(welcomeMail(email, ctx.siteTitle, link), tx);
    }
    return { subscribed, pointsEarned };
  });
}


/** Ends a subscription; answers whether an active subscription was found. */
export async function unsubscribe(db: Db, email: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(newsletterSubscribers)
    .set({ unsubscribedAt: now })
    .where(sql`lower(${newsletterSubscribers.email}) = lower(${email}) and ${newsletterSubscribers.unsubscribedAt} is null`)
    .returning({ id: newsletterSubscribers.id, userId: newsletterSubscribers.userId });
  for (const row of rows) {
    if (row.userId !== null) await db.update(users).set({ isSubscribed: false }).where(eq(users.id, row.userId));
  }
  return rows.length > 0;
}
