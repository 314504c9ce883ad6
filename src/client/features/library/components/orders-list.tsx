/** Hardcover and paperback orders: shipped, not downloaded, so they show their status instead. */
import { Gift, Package, Truck } from 'lucide-react';
import { type Order } from '@shared/schemas/library';
import { formatLabel } from '@shared/constants';
import { Badge } from '@client/components/ui/badge';
import type { ReactNode } from 'react';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

function statusLabel(order: Order): string {
  if (order.status === 'shipped') return 'Shipped';
  if (order.status === 'refunded') return 'Refunded';
  if (order.status === 'pending') return 'Awaiting payment';
  return 'Preparing to ship';
}

export interface OrdersListProps {
  orders: Order[];
  /** What the page shows instead of the status badge (a gift's own status), or null for the badge. */
  orderStatus?: (order: Order) => ReactNode | null;
}

export function OrdersList({ orders, orderStatus }: OrdersListProps) {
  if (orders.length === 0) return null;
  return (
    <section aria-labelledby="orders-title" className="mt-12">
      <h3 id="orders-title" className="font-display text-2xl font-semibold text-bone-50">
        Your Orders
      </h3>
      <p className="mt-1 text-sm text-bone-400">
        Printed editions are shipped to you and gifts go to their recipients: neither is part of your digital library.
      </p>
      <ul className="mt-5 grid gap-3">
        {orders.map((order) => (
          <li
            key={order.id}
            className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-ink-700 bg-ink-900/80 px-5 py-4"
          >
            <span className="flex items-center gap-3">
              <span className="grid size-9 place-items-center rounded-md border border-ink-600 bg-ink-950 text-blood-400">
                {order.gift ? (
                  <Gift aria-hidden="true" className="size-4" />
                ) : order.status === 'shipped' ? (
                  <Truck aria-hidden="true" className="size-4" />
                ) : (
                  <Package aria-hidden="true" className="size-4" />
                )}
              </span>
              <span>
                <span className="block font-medium text-bone-50">
                  {order.book.title} · {formatLabel(order.format)}
                  {order.gift ? ` · a gift for ${order.gift.recipientName}` : ''}
                </span>
                <span className="block text-sm text-bone-400">
                  {order.orderReference} · {dateFormat.format(new Date(order.purchaseDate))} · {order.displayPrice}
                </span>
              </span>
            </span>
            {orderStatus?.(order) ?? <Badge variant={order.status === 'shipped' ? 'accent' : 'outline'}>{statusLabel(order)}</Badge>}
          </li>
        ))}
      </ul>
    </section>
  );
}
