/** "Your Orders": every order the reader paid for, with its status, refund and discount. */
import { Download, Gift, Package, Truck, Undo2 } from 'lucide-react';
import { type Order } from '@shared/schemas/library';
import { formatLabel, isDigitalFormat } from '@shared/constants';
import { orderStatusLabel } from '@shared/order-words';
import { Badge } from '@client/components/ui/badge';
import type { ReactNode } from 'react';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

function statusLabel(order: Order): string {
  if (order.status === 'refunded' && order.refundedAt) return `Refunded on ${dateFormat.format(new Date(order.refundedAt))}`;
  return orderStatusLabel(order.status, order.format, order.availableAt);
}

const ORDER_ICON = (order: Order) =>
  order.gift ? Gift : order.status === 'refunded' ? Undo2 : order.status === 'shipped' ? Truck : isDigitalFormat(order.format) ? Download : Package;

export interface OrdersListProps {
  orders: Order[];
  /** What the page shows instead of the status badge (a gift's own status), or null for the badge. */
  orderStatus?: (order: Order) => ReactNode | null;
}

/** The carrier and tracking number of a shipped parcel, linked to the carrier's page when there is one. */
function Tracking({ order }: { order: Order }) {
  if (!order.trackingNumber) return null;
  return (
    <span className="block text-sm text-bone-300">
      {order.carrier} tracking number{' '}
      {order.trackingUrl ? (
        <a className="font-mono text-blood-300 underline underline-offset-2 hover:text-blood-200" href={order.trackingUrl} target="_blank" rel="noopener noreferrer">
          {order.trackingNumber}
        </a>
      ) : (
        <span className="font-mono">{order.trackingNumber}</span>
      )}
    </span>
  );
}

function OrderIcon({ order }: { order: Order }) {
  const Icon = ORDER_ICON(order);
  return <Icon aria-hidden="true" className="size-4" />;
}

export function OrdersList({ orders, orderStatus }: OrdersListProps) {
  if (orders.length === 0) return null;
  return (
    <section aria-labelledby="orders-title" className="mt-12">
      <h3 id="orders-title" className="font-display text-2xl font-semibold text-bone-50">
        Your Orders
      </h3>
      <p className="mt-1 text-sm text-bone-400">
        Everything you have bought, with what you paid. Digital formats are in your library above; printed editions
        are shipped to you and gifts go to their recipients.
      </p>
      <ul className="mt-5 grid gap-3">
        {orders.map((order) => (
          <li
            key={order.id}
            className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-ink-700 bg-ink-900/80 px-5 py-4"
          >
            <span className="flex items-center gap-3">
              <span className="grid size-9 shrink-0 place-items-center rounded-md border border-ink-600 bg-ink-950 text-blood-400">
                <OrderIcon order={order} />
              </span>
              <span>
                <span className="block font-medium text-bone-50">
                  {order.book.title} · {formatLabel(order.format)}
                  {order.quantity && order.quantity > 1 ? ` × ${order.quantity}` : ''}
                  {order.gift ? ` · a gift for ${order.gift.recipientName}` : ''}
                </span>
                <span className="block text-sm text-bone-400">
                  {order.orderReference} · {dateFormat.format(new Date(order.purchaseDate))} ·{' '}
                  {order.displayListPrice ? (
                    <>
                      <s className="text-bone-500">
                        <span className="sr-only">list price </span>
                        {order.displayListPrice}
                      </s>{' '}
                      {order.displayPrice} paid{order.discountCode ? ` with code ${order.discountCode}` : ''}
                    </>
                  ) : (
                    order.displayPrice
                  )}
                </span>
                {order.displayTax ? (
                  <span className="block text-sm text-bone-400">
                    Net {order.displayNet} · Tax {order.displayTax}
                  </span>
                ) : null}
                {order.displayShipping ? <span className="block text-sm text-bone-400">Shipping {order.displayShipping}</span> : null}
                <Tracking order={order} />
              </span>
            </span>
            {orderStatus?.(order) ?? <Badge variant={order.status === 'shipped' ? 'accent' : 'outline'}>{statusLabel(order)}</Badge>}
          </li>
        ))}
      </ul>
    </section>
  );
}
