import { and, type AnyColumn, eq, sql, type SQL } from 'drizzle-orm';
import type { PurchaseStatus } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { keysetOrder, type Keyset } from '../../db/keyset';
import { books, purchaseCustomerInfo, purchases, users } from '../../db/schema';
import type { Reports } from '../../platform/operations/reports';
import { audit, type ActorId } from '../../platform/operations/audit';
import { keysetBatches } from './csv-export';
import { csvTime } from './csv';
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

/** Pence as pounds with two decimals, exactly. */
const pounds = (pence: SQL | AnyColumn) => sql`(${pence}::numeric / 100)::numeric(20, 2)`;

/**
 * Every order the list's filters and search find (all of them without), oldest first, for the CSV
 * export: read in keyset batches like the subscribers' (decisions 0071, 0111), and audited with its row count.
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
  const p = purchases;
  return keysetBatches(
    reports,
    {
      keyset: ORDERS_OLDEST_FIRST,
      cells: [
        sql`${p.orderReference}`,
        csvTime(p.purchaseDate),
        sql`${users.username}`,
        sql`${users.email}`,
        sql`${purchaseCustomerInfo.customerName}`,
        sql`${books.title}`,
        sql`${p.format}`,
        sql`${p.kind}`,
        sql`${p.status}`,
        pounds(p.price),
        pounds(p.refundedAmount),
        sql`${p.currency}`,
        csvTime(p.shippedAt),
      ],
      rows: (reportDb, columns, range) =>
        reportDb
          .select(columns)
          .from(p)
          .innerJoin(users, eq(users.id, p.userId))
          .innerJoin(books, eq(books.id, p.bookId))
          .leftJoin(purchaseCustomerInfo, eq(purchaseCustomerInfo.purchaseId, p.id))
          .where(and(where, range))
          .orderBy(...keysetOrder(ORDERS_OLDEST_FIRST))
          .$dynamic(),
      done: (rows) => audit(db, actorId, { action: 'orders.export', targetType: 'purchase', details: { rows } }, now),
    },
    signal,
  );
}
