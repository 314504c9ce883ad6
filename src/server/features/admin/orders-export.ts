import { and, eq } from 'drizzle-orm';
import type { PurchaseStatus } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { afterCursor, cursorKey, keysetOrder, type Keyset } from '../../db/keyset';
import { books, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import type { Reports } from '../../platform/operations/reports';
import { audit, type ActorId } from '../../platform/operations/audit';
import { keysetBatches } from './csv-export';
import { ORDER_KEYSET, orderConditions } from './orders-service';

/** Oldest first; the keyset of purchases_date_id_idx. */
const ORDERS_OLDEST_FIRST: Keyset = { ...ORDER_KEYSET, direction: 'asc' };

export const ORDERS_CSV_HEADER = [
  'order_reference',
  'purchase_date',
  'buyer_username',
  'buyer_email',
  'customer_name',
  'book',
  'format',
  'kind',
  'status',
  'price',
  'refunded',
  'currency',
  'shipped_at',
];

const pounds = (pence: number) => (pence / 100).toFixed(2);

/**
 * Every order the list's filters and search find (all of them without), oldest first, for the CSV
 * export: read in keyset batches like the subscribers' (decision 0071), and audited with its row count.
 */
export function exportOrders(
  reports: Reports,
  db: DbOrTx,
  filter: { status?: PurchaseStatus; format?: string; q?: string },
  actorId: ActorId,
  now: Date,
  signal?: AbortSignal,
) {
  const where = orderConditions(filter);
  return keysetBatches(
    reports,
    {
      read: (reportDb, after, limit) =>
        reportDb
          .select({
            id: purchases.id,
            orderReference: purchases.orderReference,
            purchaseDate: purchases.purchaseDate,
            username: users.username,
            email: users.email,
            customerName: purchaseCustomerInfo.customerName,
            title: books.title,
            format: purchases.format,
            kind: purchases.kind,
            status: purchases.status,
            price: purchases.price,
            refundedAmount: purchases.refundedAmount,
            currency: purchases.currency,
            shippedAt: purchases.shippedAt,
            cursorKey: cursorKey(ORDERS_OLDEST_FIRST),
          })
          .from(purchases)
          .innerJoin(users, eq(users.id, purchases.userId))
          .innerJoin(books, eq(books.id, purchases.bookId))
          .leftJoin(purchaseCustomerInfo, eq(purchaseCustomerInfo.purchaseId, purchases.id))
          .where(and(where, afterCursor(ORDERS_OLDEST_FIRST, after)))
          .orderBy(...keysetOrder(ORDERS_OLDEST_FIRST))
          .limit(limit),
      cells: (r) => [
        r.orderReference,
        r.purchaseDate,
        r.username,
        r.email,
        r.customerName,
        r.title,
        r.format,
        r.kind,
        r.status,
        pounds(r.price),
        pounds(r.refundedAmount),
        r.currency,
        r.shippedAt,
      ],
      done: (rows) => audit(db, actorId, { action: 'orders.export', targetType: 'purchase', details: { rows } }, now),
    },
    signal,
  );
}
