import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ORDERS_PAGE_SIZE, type AdminOrder, type OrderPage } from '@shared/schemas/admin';
import type { PurchaseStatus } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { books, purchaseCustomerInfo, purchases, users } from '../../db/schema';

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
      refundedBy: refunder.username,
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
  }));
  return { items, total: Number(total), page: filter.page, pageSize: ORDERS_PAGE_SIZE };
}

export async function getOrder(db: DbOrTx, id: number): Promise<AdminOrder | null> {
  const page = await listOrders(db, { id, page: 1 });
  return page.items[0] ?? null;
}
