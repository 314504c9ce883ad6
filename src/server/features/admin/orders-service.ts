import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ORDERS_PAGE_SIZE, type AdminOrder, type OrderPage } from '@shared/schemas/admin';
import { PHYSICAL_FORMATS, isDigitalFormat, type PurchaseStatus } from '@shared/constants';
import type { Db, DbOrTx } from '../../db/client';
import { books, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import { conflict, notFound } from '../../platform/errors';
import { audit, type ActorId } from '../../platform/audit';
import type { Mailer } from '../../platform/mail';
import { restoreDownload } from '../library/service';
import { orderShippedMail } from './templates';
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
}

const refunder = alias(users, 'refunder');

export async function listOrders(db: DbOrTx, filter: OrderFilter): Promise<OrderPage> {
  const conditions: SQL[] = [];
  if (filter.id !== undefined) conditions.push(eq(purchases.id, filter.id));
  if (filter.status) conditions.push(eq(purchases.status, filter.status));
  if (filter.format) conditions.push(eq(purchases.format, filter.format));
  if (filter.q) {
    const pattern = `%${likeEscape(filter.q)}%`;
    conditions.push(
      or(
        ilike(users.username, pattern),
        ilike(users.email, pattern),
        ilike(purchases.orderReference, pattern),
        ilike(purchaseCustomerInfo.customerName, pattern),
      )!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const base = () =>
    db
      .select({ n: count() })
      .from(purchases)
      .innerJoin(users, eq(users.id, purchases.userId))
      .leftJoin(purchaseCustomerInfo, eq(purchaseCustomerInfo.purchaseId, purchases.id))
      .where(where);
  const [{ n: total }] = await base();
  const rows = await db
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
      customerName: purchaseCustomerInfo.customerName,
      shippingAddress: purchaseCustomerInfo.shippingAddress,
      kind: purchases.kind,
      refundedAt: purchases.refundedAt,
      refundedBy: sql<string | null>`coalesce(nullif(${refunder.displayName}, ''), ${refunder.username})`,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .innerJoin(books, eq(books.id, purchases.bookId))
    .leftJoin(purchaseCustomerInfo, eq(purchaseCustomerInfo.purchaseId, purchases.id))
    .leftJoin(refunder, eq(refunder.id, purchases.refundedBy))
    .where(where)
    .orderBy(desc(purchases.purchaseDate), desc(purchases.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((filter.page - 1) * ORDERS_PAGE_SIZE);
  const gifts = await giftSummaries(db, rows.filter((r) => r.kind === 'gift').map((r) => r.id));
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
    customerName: r.customerName ?? null,
    shippingAddress: r.shippingAddress ?? null,
    kind: r.kind,
    refundedAt: iso(r.refundedAt),
    refundedBy: r.refundedBy ?? null,
    gift: gifts.get(r.id) ?? null,
  }));
  return { items, total: Number(total), page: filter.page, pageSize: ORDERS_PAGE_SIZE };
}

export async function getOrder(db: DbOrTx, id: number): Promise<AdminOrder | null> {
  const page = await listOrders(db, { id, page: 1 });
  return page.items[0] ?? null;
}

async function orderAfterChange(db: Db, id: number): Promise<AdminOrder> {
  return (await getOrder(db, id))!;
}

/** Marks a physical order shipped and tells the buyer by mail, in one transaction with the change. */
export async function shipOrder(db: Db, mailer: Mailer, id: number, actorId: ActorId, now: Date): Promise<AdminOrder> {
  await db.transaction(async (tx) => {
    // One conditional statement: shipping twice, or shipping a download, changes nothing.
    const [row] = await tx
      .update(purchases)
      .set({ status: 'shipped', shippedAt: now })
      .where(and(eq(purchases.id, id), eq(purchases.status, 'completed'), inArray(purchases.format, [...PHYSICAL_FORMATS])))
      .returning({ userId: purchases.userId, bookId: purchases.bookId, format: purchases.format, orderReference: purchases.orderReference });
    if (!row) {
      const [exists] = await tx.select({ format: purchases.format, status: purchases.status }).from(purchases).where(eq(purchases.id, id));
      if (!exists) throw notFound('Order not found');
      if (isDigitalFormat(exists.format)) throw conflict('Digital orders are not shipped');
      throw conflict(exists.status === 'shipped' ? 'This order has already been shipped' : `A ${exists.status} order cannot be shipped`);
    }
    const [buyer] = await tx
      .select({ email: users.email, name: users.displayName, username: users.username, title: books.title })
      .from(users)
      .innerJoin(books, eq(books.id, row.bookId))
      .where(eq(users.id, row.userId));
    const mail = orderShippedMail({
      to: buyer.email,
      name: buyer.name || buyer.username,
      title: buyer.title,
      format: row.format,
      orderReference: row.orderReference,
    });
    await mailer.enqueue(mail, tx);
    await audit(tx, actorId, { action: 'order.ship', targetType: 'purchase', targetId: id, details: { orderReference: row.orderReference } }, now);
  });
  return orderAfterChange(db, id);
}

/** Gives the buyer their download allowance for this format back (at least the default allowance). */
export async function resetDownloadAllowance(db: Db, id: number, actorId: ActorId, now: Date): Promise<AdminOrder> {
  await db.transaction(async (tx) => {
    const restored = await restoreDownload(tx, id);
    if (!restored.ok && restored.reason === 'missing') throw notFound('Order not found');
    if (!restored.ok && restored.reason === 'physical') throw conflict('Only digital orders have a download allowance');
    if (!restored.ok) throw conflict(`A ${restored.before.status} order cannot be downloaded`);
    const { before } = restored;
    await audit(
      tx,
      actorId,
      {
        action: 'order.reset-download',
        targetType: 'purchase',
        targetId: id,
        details: { buyerId: before.userId, format: before.format, previousDownloadCount: before.downloadCount },
      },
      now,
    );
  });
  return orderAfterChange(db, id);
}
