import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ORDERS_COUNT_CAP, ORDERS_PAGE_SIZE, type AdminOrder, type OrderPage, type OrderRefund } from '@shared/schemas/admin';
import type { PurchaseStatus } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { afterCursor, cursorKey, keysetOrder, keysetPage, type Keyset } from '../../db/keyset';
import type { Cursor } from '@shared/schemas/pages';
import { books, orderLines, purchaseCustomerInfo, purchases, refunds, users } from '../../db/schema';
import { giftSummaries } from '../gifts/service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** % and _ in a search are literal characters, not wildcards. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface OrderFilter {
  status?: PurchaseStatus;
  format?: string;
  q?: string;
  id?: number;
  page: number;
  /** Continue after this cursor (keyset) instead of counting `page` pages from the top. */
  after?: Cursor;
}

/** Newest first; the keyset of purchases_date_id_idx. */
export const ORDER_KEYSET: Keyset = { sort: purchases.purchaseDate, id: purchases.id, type: 'timestamptz', direction: 'desc' };

/**
 * The purchases a search finds (decision 0071): a buyer's name or address anywhere in it (trigram indexes),
 * or an order reference from its start (a prefix of its index, as typed or in capitals). One set of ids,
 * so each part uses its own index instead of one OR over four joined tables reading every row.
 */
function searchedPurchases(q: string): SQL {
  const { anywhere, prefix } = searchPatterns(q);
  // The buyers' orders are looked up per matching buyer (offset 0 keeps the planner from turning that into a
  // join that reads every purchase, decision 0105).
  return sql`${purchases.id} in (
      select p.id from users u join lateral (select p.id from purchases p where p.user_id = u.id offset 0) p on true
        where ${buyerMatches(anywhere)}
      union all
      select ci.purchase_id from purchase_customer_info ci where ci.customer_name ilike ${anywhere}
      union all
      select p.id from purchases p where p.order_reference like ${prefix} or p.order_reference like ${prefix.toUpperCase()})`;
}

function searchPatterns(q: string) {
  return { anywhere: `%${likeEscape(q)}%`, prefix: `${likeEscape(q)}%` };
}

/** A buyer (the users row `u`) whose name or address holds the search: the same test in every form below. */
function buyerMatches(anywhere: string): SQL {
  return sql`(u.username ilike ${anywhere} or u.email ilike ${anywhere})`;
}

/** An order of the outer query whose reference starts with the search, as typed or in capitals. */
function referenceStarts(prefix: string): SQL {
  return sql`(${purchases.orderReference} like ${prefix} or ${purchases.orderReference} like ${prefix.toUpperCase()})`;
}

/** The same search asked of one purchase at a time: cheap on a few rows, where the set above is built whole. */
function purchaseMatches(q: string): SQL {
  const { anywhere, prefix } = searchPatterns(q);
  return sql`(exists (select 1 from users u where u.id = ${purchases.userId} and ${buyerMatches(anywhere)})
    or exists (select 1 from purchase_customer_info ci where ci.purchase_id = ${purchases.id} and ci.customer_name ilike ${anywhere})
    or ${referenceStarts(prefix)})`;
}

/**
 * The same search again, as a filter read while the orders are walked newest first: the matching buyers and
 * the orders named at checkout are each looked up once into a hashed set, and each order is then checked
 * against them. Quick when matches are common enough that a page is found soon; a rare one would walk
 * every order, which is why it is used only where the newest orders show matches are common.
 */
function scannedPurchases(q: string): SQL {
  const { anywhere, prefix } = searchPatterns(q);
  return sql`(${purchases.userId} in (select u.id from users u where ${buyerMatches(anywhere)})
    or ${purchases.id} in (select ci.purchase_id from purchase_customer_info ci where ci.customer_name ilike ${anywhere})
    or ${referenceStarts(prefix)})`;
}

/** The newest `size` purchases that meet `where` (after a cursor, if it holds one), by their primary key. */
function newestPurchases(where: SQL | undefined, size: number): SQL {
  return sql`${purchases.id} = any(array(select ${purchases.id} from ${purchases} ${where ? sql`where ${where}` : sql``}
    order by ${sql.join(keysetOrder(ORDER_KEYSET), sql`, `)} limit ${size}))`;
}

/**
 * How many of the newest orders a search reads one by one before it builds its whole set (decision 0105):
 * a search that matches a large share of the orders (an address's domain) fills its count past the cap and
 * its page from them, so neither waits for hundreds of thousands of ids; a narrower one finds too few there
 * and is answered from the set, which is small for it.
 */
export interface SearchWindow {
  count: number;
  page: number;
  /** Matches among the `count` newest orders from which a search is walked newest first (scannedPurchases). */
  dense: number;
}
export const SEARCH_WINDOW: SearchWindow = { count: 5_000, page: 1_000, dense: 25 };

const refunder = alias(users, 'refunder');

/** The list's filters and search, every one a condition on purchases itself. */
export function orderConditions(filter: Pick<OrderFilter, 'id' | 'status' | 'format' | 'q'>): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.id !== undefined) conditions.push(eq(purchases.id, filter.id));
  if (filter.status) conditions.push(eq(purchases.status, filter.status));
  if (filter.format) conditions.push(eq(purchases.format, filter.format));
  if (filter.q) conditions.push(searchedPurchases(filter.q));
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * How many orders meet `where`, counting stops one past the cap (decision 0105): every condition is on
 * purchases itself, so the count reads no other table, and a list or a search matching most of a million
 * orders is not counted to the end.
 */
async function cappedCount(db: DbOrTx, where: SQL | undefined): Promise<number> {
  const counted = db.select({ one: sql`1` }).from(purchases).where(where).limit(ORDERS_COUNT_CAP + 1).as('counted');
  const [{ n }] = await db.select({ n: count() }).from(counted);
  return n;
}

/**
 * A search too narrow for the newest orders to answer: its matching orders by id, when there are no more
 * than the cap. The set of matches (buyers by name and address, their orders, names given at checkout) is
 * then built once, and the count and the page read those ids instead of each building it again.
 */
async function searchedIds(db: DbOrTx, where: SQL | undefined): Promise<number[] | null> {
  const rows = await db.select({ id: purchases.id }).from(purchases).where(where).limit(ORDERS_COUNT_CAP + 1);
  return rows.length > ORDERS_COUNT_CAP ? null : rows.map((r) => r.id);
}

/** One array parameter, however many ids (a list of parameters would grow the statement with them). */
function inIds(ids: number[]): SQL {
  return sql`${purchases.id} = any(${`{${ids.join(',')}}`}::int[])`;
}

/** One page of orders with everything the list shows, newest first, from the keyset's index. */
function orderRows(db: DbOrTx, where: SQL | undefined, offset: number) {
  return db
    .select({
      id: purchases.id,
      orderReference: purchases.orderReference,
      purchaseDate: purchases.purchaseDate,
      buyerId: users.id,
      username: users.username,
      email: users.email,
      displayName: users.displayName,
      bookId: books.id,
      title: books.title,
      format: purchases.format,
      price: purchases.price,
      currency: purchases.currency,
      status: purchases.status,
      downloadCount: purchases.downloadCount,
      maxDownloads: purchases.maxDownloads,
      downloadUsed: purchases.downloadUsed,
      lastDownloaded: purchases.lastDownloaded,
      shippedAt: purchases.shippedAt,
      carrier: purchases.shippingCarrier,
      trackingNumber: purchases.trackingNumber,
      trackingUrl: purchases.trackingUrl,
      customerName: purchaseCustomerInfo.customerName,
      shippingAddress: purchaseCustomerInfo.shippingAddress,
      kind: purchases.kind,
      refundedAt: purchases.refundedAt,
      refundedBy: sql<string | null>`coalesce(nullif(${refunder.displayName}, ''), ${refunder.username})`,
      refundedAmount: purchases.refundedAmount,
      cursorKey: cursorKey(ORDER_KEYSET),
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .innerJoin(books, eq(books.id, purchases.bookId))
    .leftJoin(purchaseCustomerInfo, eq(purchaseCustomerInfo.purchaseId, purchases.id))
    .leftJoin(refunder, eq(refunder.id, purchases.refundedBy))
    .where(inArray(purchases.id, pageIds(db, where, offset)))
    .orderBy(...keysetOrder(ORDER_KEYSET));
}

/**
 * The page's orders by id, chosen before anything is joined to them: a search matching thousands of orders
 * would otherwise join every match's buyer, book and checkout details only to keep a page of them.
 */
function pageIds(db: DbOrTx, where: SQL | undefined, offset: number) {
  return db
    .select({ id: purchases.id })
    .from(purchases)
    .where(where)
    .orderBy(...keysetOrder(ORDER_KEYSET))
    .limit(ORDERS_PAGE_SIZE + 1)
    .offset(offset);
}

export async function listOrders(db: DbOrTx, filter: OrderFilter, window: SearchWindow = SEARCH_WINDOW): Promise<OrderPage> {
  const where = orderConditions(filter);
  const after = afterCursor(ORDER_KEYSET, filter.after);
  const offset = filter.after ? 0 : (filter.page - 1) * ORDERS_PAGE_SIZE;
  // A search tries the newest orders first, one by one: any match found there comes before every match
  // outside them, so when they hold enough matches their answer is the whole list's.
  const search = filter.id === undefined ? filter.q : undefined;
  const others = orderConditions({ ...filter, q: undefined });
  let matched = search ? await cappedCount(db, and(others, newestPurchases(others, window.count), purchaseMatches(search))) : 0;
  const broad = matched > ORDERS_COUNT_CAP;
  // Common enough among the newest orders (one in 200 by default): walking the orders newest first meets a
  // page's matches and the count's soon. Rarer: the set of matches is built, once.
  const dense = search !== undefined && !broad && matched >= window.dense;
  const searched = dense ? and(others, scannedPurchases(search)) : where;
  const ids = search && !broad && !dense ? await searchedIds(db, where) : undefined;
  const listed = ids ? and(others, inIds(ids)) : searched;
  // No ids: more matches than the cap, which is all the count says.
  if (!broad) matched = ids ? ids.length : ids === null ? ORDERS_COUNT_CAP + 1 : await cappedCount(db, searched);
  const totalCapped = matched > ORDERS_COUNT_CAP;
  const total = totalCapped ? ORDERS_COUNT_CAP : matched;
  let found = broad ? await orderRows(db, and(others, after, newestPurchases(and(others, after), window.page), purchaseMatches(search!)), offset) : [];
  // Too few of them to fill the page and show that more follow: the whole set answers.
  if (found.length <= ORDERS_PAGE_SIZE) found = await orderRows(db, and(listed, after), offset);
  const { items: rows, nextCursor } = keysetPage(found, ORDERS_PAGE_SIZE, (r) => r.id);
  const gifts = await giftSummaries(db, rows.filter((r) => r.kind === 'gift').map((r) => r.id));
  const refundsOf = await refundLists(db, rows.filter((r) => r.refundedAmount > 0 || r.status === 'refunded').map((r) => r.id));
  const lineIds = await lineIdsOf(db, rows.map((r) => r.id));
  const items: AdminOrder[] = rows.map((r) => ({
    id: r.id,
    orderReference: r.orderReference,
    purchaseDate: r.purchaseDate.toISOString(),
    buyer: { id: r.buyerId, username: r.username, email: r.email, displayName: r.displayName },
    book: { id: r.bookId, title: r.title },
    format: r.format,
    price: r.price,
    currency: r.currency,
    status: r.status as PurchaseStatus,
    downloadCount: r.downloadCount,
    maxDownloads: r.maxDownloads,
    downloadUsed: r.downloadUsed,
    lastDownloaded: iso(r.lastDownloaded),
    shippedAt: iso(r.shippedAt),
    carrier: r.carrier,
    trackingNumber: r.trackingNumber,
    trackingUrl: r.trackingUrl,
    customerName: r.customerName ?? null,
    shippingAddress: r.shippingAddress ?? null,
    kind: r.kind,
    refundedAt: iso(r.refundedAt),
    refundedBy: r.refundedBy ?? null,
    gift: gifts.get(r.id) ?? null,
    lineId: lineIds.get(r.id) ?? null,
    refundedAmount: r.refundedAmount,
    refunds: refundsOf.get(r.id) ?? [],
  }));
  return { items, total: Number(total), totalCapped, page: filter.page, pageSize: ORDERS_PAGE_SIZE, nextCursor };
}

/** Each refund of the page's rows, oldest first, by whom (decision 0082); one query for the page. */
async function refundLists(db: DbOrTx, ids: number[]): Promise<Map<number, OrderRefund[]>> {
  const lists = new Map<number, OrderRefund[]>();
  if (ids.length === 0) return lists;
  const rows = await db
    .select({
      id: refunds.id,
      purchaseId: refunds.purchaseId,
      amount: refunds.amount,
      whole: refunds.whole,
      at: refunds.createdAt,
      by: sql<string | null>`coalesce(nullif(${refunder.displayName}, ''), ${refunder.username})`,
    })
    .from(refunds)
    .leftJoin(refunder, eq(refunder.id, refunds.createdBy))
    .where(inArray(refunds.purchaseId, ids))
    .orderBy(asc(refunds.id));
  for (const r of rows) {
    const list = lists.get(r.purchaseId) ?? [];
    list.push({ id: r.id, amount: r.amount, whole: r.whole, at: r.at.toISOString(), by: r.by ?? null });
    lists.set(r.purchaseId, list);
  }
  return lists;
}

/** Which basket order line each row of the page is. */
async function lineIdsOf(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: orderLines.id, purchaseId: orderLines.purchaseId })
    .from(orderLines)
    .where(inArray(orderLines.purchaseId, ids));
  return new Map(rows.map((r) => [r.purchaseId!, r.id]));
}

export async function getOrder(db: DbOrTx, id: number): Promise<AdminOrder | null> {
  const page = await listOrders(db, { id, page: 1 });
  return page.items[0] ?? null;
}

/** The order as it stands after a change the caller has just made to it. */
export async function orderAfterChange(db: DbOrTx, id: number): Promise<AdminOrder> {
  return (await getOrder(db, id))!;
}
