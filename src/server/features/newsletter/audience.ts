import { sql, type SQL } from 'drizzle-orm';
import type { Audience } from '@shared/schemas/broadcasts';
import type { DbOrTx } from '../../db/client';
import { books, newsletterSubscribers, purchases, releaseMails, users } from '../../db/schema';
import { OWNED_KINDS } from '../../db/purchase-kinds';

const s = newsletterSubscribers;
const ownedKinds = sql.raw(OWNED_KINDS.map((k) => `'${k}'`).join(', '));
/** A purchase that went through (a refunded or abandoned one makes nobody an owner or a buyer). */
const settled = sql`${purchases.status} in ('completed', 'shipped')`;

/**
 * The purchase is this subscriber's: made by the account the subscription belongs to, or by an account with
 * the subscription's address (a reader who subscribed before they had an account).
 */
const bySubscriber = sql`(${purchases.userId} = ${s.userId}
  or ${purchases.userId} in (select ${users.id} from ${users} where lower(${users.email}) = lower(${s.email})))`;

/** The condition on a newsletter_subscribers row for being in the audience. Every audience is confirmed only. */
export function audienceCondition(audience: Audience): SQL {
  const confirmed = sql`${s.state} = 'confirmed'`;
  switch (audience.kind) {
    case 'all':
      return confirmed;
    case 'owners':
      return sql`${confirmed} and exists (select 1 from ${purchases}
        where ${purchases.bookId} = ${audience.bookId} and ${purchases.format} = ${audience.format}
          and ${purchases.kind} in (${ownedKinds}) and ${settled} and ${bySubscriber})`;
    case 'pre-order':
      // Bought before the release moment: the book is still on pre-order, or its release has mailed them.
      return sql`${confirmed} and exists (select 1 from ${purchases} join ${books} on ${books.id} = ${purchases.bookId}
        where ${purchases.bookId} = ${audience.bookId} and ${purchases.kind} in (${ownedKinds}) and ${settled} and ${bySubscriber}
          and ((${books.releaseAt} is not null and ${purchases.purchaseDate} < ${books.releaseAt})
               or exists (select 1 from ${releaseMails} where ${releaseMails.purchaseId} = ${purchases.id})))`;
    case 'no-purchase':
      // Nothing paid for, for themselves or as a gift; a copy someone gave them is not a purchase of theirs.
      return sql`${confirmed} and not exists (select 1 from ${purchases}
        where ${purchases.kind} in ('paid', 'gift') and ${settled} and ${bySubscriber})`;
  }
}

/** How many addresses the audience holds now. */
export async function audienceSize(db: DbOrTx, audience: Audience): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(s).where(audienceCondition(audience));
  return Number(row?.n ?? 0);
}

/** One page of the audience after `afterId`, in id order: the keyset the listing walks, so memory stays flat. */
export function audiencePage(db: DbOrTx, audience: Audience, afterId: number, size: number) {
  return db
    .select({ id: s.id, email: s.email })
    .from(s)
    .where(sql`${s.id} > ${afterId} and ${audienceCondition(audience)}`)
    .orderBy(s.id)
    .limit(size);
}
