import { and, ilike, isNull, ne, or, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import type { MessageList, SubscriberPage, UserPage } from '@shared/schemas/admin';
import type { DbOrTx } from '../../db/client';
import { contactMessages, newsletterSubscribers, purchases, users } from '../../db/schema';
import { qualified } from '../../db/qualified';
import { runningCounts } from '../../db/row-counts';
import { afterCursor, cursorKey, keysetOrder, keysetPage, type Keyset } from '../../db/keyset';
import type { Cursor } from '@shared/schemas/pages';
import type { Reports } from '../../platform/operations/reports';
import { audit, type ActorId } from '../../platform/operations/audit';
import { keysetBatches } from './csv-export';
import { csvTime } from './csv';
import { toAdminMessage } from '../contact/service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Newest first; the keyset of contact_messages_created_idx (or its unread part), read backwards. */
const MESSAGES_NEWEST_FIRST: Keyset = { sort: contactMessages.createdAt, id: contactMessages.id, type: 'timestamptz', direction: 'desc' };

export interface MessageQuery {
  filter: 'all' | 'unread';
  after?: Cursor;
  limit: number;
}

/**
 * One page of the inbox (decision 0071), with the unread count of the whole inbox: a running total (decision
 * 0104), as counting the unread messages on every page grew with them.
 */
export async function listMessages(db: DbOrTx, query: MessageQuery): Promise<MessageList> {
  const found = await db
    .select({ message: contactMessages, cursorKey: cursorKey(MESSAGES_NEWEST_FIRST) })
    .from(contactMessages)
    .where(and(query.filter === 'unread' ? isNull(contactMessages.readAt) : undefined, afterCursor(MESSAGES_NEWEST_FIRST, query.after)))
    .orderBy(...keysetOrder(MESSAGES_NEWEST_FIRST))
    .limit(query.limit + 1);
  const { items, nextCursor } = keysetPage(found, query.limit, (r) => r.message.id);
  const { unread_messages: unread } = await runningCounts(db, ['unread_messages']);
  return { items: items.map((r) => toAdminMessage(r.message)), nextCursor, unread };
}

const subscriberColumns = {
  id: newsletterSubscribers.id,
  email: newsletterSubscribers.email,
  name: newsletterSubscribers.name,
  subscribedAt: newsletterSubscribers.subscribedAt,
  unsubscribedAt: newsletterSubscribers.unsubscribedAt,
  state: newsletterSubscribers.state,
  source: newsletterSubscribers.source,
};

/** Newest first; the keyset of newsletter_subscribed_idx, read backwards. */
const SUBSCRIBERS_NEWEST_FIRST: Keyset = {
  sort: newsletterSubscribers.subscribedAt,
  id: newsletterSubscribers.id,
  type: 'timestamptz',
  direction: 'desc',
};
/** % and _ in a search are literal characters, not wildcards. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface SubscriberQuery {
  q?: string;
  after?: Cursor;
  limit: number;
}

/** The whole list's totals, whatever the search: running totals (decision 0104), not counted per page. */
const SUBSCRIBER_TOTALS = ['subscribers', 'active_subscribers', 'unconfirmed_subscribers'] as const;

/** One page of the list (decision 0071); a search matches any part of an address or name (trigram indexes). */
export async function listSubscribers(db: DbOrTx, query: SubscriberQuery): Promise<SubscriberPage> {
  const pattern = query.q ? `%${likeEscape(query.q)}%` : null;
  const found = await db
    .select({ ...subscriberColumns, cursorKey: cursorKey(SUBSCRIBERS_NEWEST_FIRST) })
    .from(newsletterSubscribers)
    .where(
      and(
        pattern ? or(ilike(newsletterSubscribers.email, pattern), ilike(newsletterSubscribers.name, pattern)) : undefined,
        afterCursor(SUBSCRIBERS_NEWEST_FIRST, query.after),
      ),
    )
    .orderBy(...keysetOrder(SUBSCRIBERS_NEWEST_FIRST))
    .limit(query.limit + 1);
  const { items, nextCursor } = keysetPage(found, query.limit, (r) => r.id);
  const counts = await runningCounts(db, SUBSCRIBER_TOTALS);
  return {
    items: items.map(({ cursorKey: _key, ...r }) => ({ ...r, subscribedAt: r.subscribedAt.toISOString(), unsubscribedAt: iso(r.unsubscribedAt) })),
    nextCursor,
    total: counts.subscribers,
    active: counts.active_subscribers,
    unconfirmed: counts.unconfirmed_subscribers,
  };
}

/** Oldest first; the keyset of newsletter_subscribed_idx. */
const SUBSCRIBERS_OLDEST_FIRST: Keyset = {
  sort: newsletterSubscribers.subscribedAt,
  id: newsletterSubscribers.id,
  type: 'timestamptz',
  direction: 'asc',
};
export { EXPORT_BATCH } from './csv-export';

export const SUBSCRIBERS_CSV_HEADER = ['email', 'name', 'subscribed_at', 'state', 'source'];

/**
 * Every address that has not unsubscribed, oldest first, with its state (only 'confirmed' may be sent
 * news) and source, for the CSV export: read in keyset batches (decision 0071) and audited with its row
 * count once the last batch has been read.
 */
export function exportSubscribers(reports: Reports, db: DbOrTx, actorId: ActorId, now: Date, signal?: AbortSignal) {
  const s = newsletterSubscribers;
  return keysetBatches(
    reports,
    {
      keyset: SUBSCRIBERS_OLDEST_FIRST,
      cells: [sql`${s.email}`, sql`${s.name}`, csvTime(s.subscribedAt), sql`${s.state}`, sql`${s.source}`],
      rows: (reportDb, columns, range) =>
        reportDb
          .select(columns)
          .from(s)
          .where(and(ne(s.state, 'unsubscribed'), range))
          .orderBy(...keysetOrder(SUBSCRIBERS_OLDEST_FIRST))
          .$dynamic(),
      done: (rows) => audit(db, actorId, { action: 'subscribers.export', targetType: 'newsletter', details: { rows } }, now),
    },
    signal,
  );
}

/** Newest first; the keyset of users_created_idx, read backwards (oldest first for the export). */
const USERS_NEWEST_FIRST: Keyset = { sort: users.createdAt, id: users.id, type: 'timestamptz', direction: 'desc' };
const USERS_OLDEST_FIRST: Keyset = { ...USERS_NEWEST_FIRST, direction: 'asc' };

/** An account with its number of purchases (counted per row from purchases_user_idx). */
const userColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  displayName: users.displayName,
  role: users.role,
  isSubscribed: users.isSubscribed,
  createdAt: users.createdAt,
  purchases: sql<number>`(select count(*) from ${purchases} where ${qualified(purchases.userId)} = ${qualified(users.id)})`.mapWith(Number),
};

/** A search matches any part of a user name or address (trigram indexes). */
const userSearch = (q: string | undefined) => {
  const pattern = q ? `%${likeEscape(q)}%` : null;
  return pattern ? or(ilike(users.username, pattern), ilike(users.email, pattern)) : undefined;
};

export interface UserQuery {
  q?: string;
  after?: Cursor;
  limit: number;
}

/**
 * One page of the accounts (decision 0071), each with its number of purchases (counted for the page's rows
 * only, from purchases_user_idx); a search matches any part of a user name or address (trigram indexes).
 */
export async function listUsers(db: DbOrTx, query: UserQuery): Promise<UserPage> {
  const found = await db
    .select({ ...userColumns, cursorKey: cursorKey(USERS_NEWEST_FIRST) })
    .from(users)
    .where(and(userSearch(query.q), afterCursor(USERS_NEWEST_FIRST, query.after)))
    .orderBy(...keysetOrder(USERS_NEWEST_FIRST))
    .limit(query.limit + 1);
  const { items, nextCursor } = keysetPage(found, query.limit, (r) => r.id);
  return {
    items: items.map(({ cursorKey: _key, ...r }) => ({ ...r, role: r.role as Role, createdAt: r.createdAt.toISOString() })),
    nextCursor,
  };
}

export const USERS_CSV_HEADER = ['username', 'email', 'display_name', 'role', 'subscribed', 'purchases', 'created_at'];

/**
 * Every account (those a search `q` finds, with one), oldest first, for the CSV export: read in keyset
 * batches like the subscribers' (decision 0071) and audited with its row count.
 */
export function exportUsers(reports: Reports, db: DbOrTx, q: string | undefined, actorId: ActorId, now: Date, signal?: AbortSignal) {
  return keysetBatches(
    reports,
    {
      keyset: USERS_OLDEST_FIRST,
      cells: [
        sql`${users.username}`,
        sql`${users.email}`,
        sql`${users.displayName}`,
        sql`${users.role}`,
        sql`case when ${users.isSubscribed} then 'yes' else 'no' end`,
        sql`${userColumns.purchases}`,
        csvTime(users.createdAt),
      ],
      rows: (reportDb, columns, range) =>
        reportDb
          .select(columns)
          .from(users)
          .where(and(userSearch(q), range))
          .orderBy(...keysetOrder(USERS_OLDEST_FIRST))
          .$dynamic(),
      done: (rows) => audit(db, actorId, { action: 'users.export', targetType: 'user', details: { rows } }, now),
    },
    signal,
  );
}
