/** /admin/orders: every purchase; mark physical orders shipped, reset a buyer's download. */
import { useState } from 'react';
import { RotateCcw } from 'lucide-react';
import { ALL_FORMATS, PURCHASE_STATUSES, type PurchaseStatus, formatLabel, formatPrice, isDigitalFormat } from '@shared/constants';
import { adminStatusLabel } from '@shared/order-words';
import { addressLines } from '@shared/schemas/checkout';
import type { AdminOrder, RefundOrderInput, ShipOrderInput } from '@shared/schemas/admin';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { toast } from '@client/components/ui/toast-store';
import { useOrderAction, useOrders, type OrderFilters } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { ExportCsvButton, exportUrl } from '@client/features/admin/components/export-csv-button';
import { formatDateTime } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';
import { PaidByNote, RefundButton, RefundList, RefundedNote, canRefund } from '@client/features/admin/orders/refund';
import { OrderKindleSends } from '@client/features/copies/components/order-kindle-sends';
import { DownloadRequests } from '@client/features/admin/orders/download-requests';
import { FlaggedFeeds } from '@client/features/feeds/components/flagged-feeds';
import { ShipButton } from '@client/features/admin/orders/ship';

/** Where a gift stands: the buyer never downloads it; only the recipient's claimed copy can be downloaded. */
function giftUse(gift: NonNullable<AdminOrder['gift']>): string {
  const who = gift.recipientName;
  if (gift.status === 'refunded') return `Refunded before ${who} could use it`;
  if (gift.status === 'scheduled') return gift.sendAt ? `For ${who}, to be sent ${formatDateTime(gift.sendAt)}` : `For ${who}, not sent yet`;
  if (gift.status === 'sent') return `Sent to ${who}, not claimed yet`;
  return gift.downloaded ? `Claimed and downloaded by ${who}` : `Claimed by ${who}, not downloaded yet`;
}

function downloadUse(o: AdminOrder): string {
  if (!isDigitalFormat(o.format)) {
    if (!o.shippedAt) return 'Not shipped yet';
    const tracking = o.trackingNumber ? ` · ${o.carrier} ${o.trackingNumber}` : '';
    return `Shipped ${formatDateTime(o.shippedAt)}${tracking}`;
  }
  if (o.kind === 'gift') return o.gift ? giftUse(o.gift) : 'A gift';
  return `${o.downloadCount} of ${o.maxDownloads} ${o.maxDownloads === 1 ? 'download' : 'downloads'} used`;
}

/** The buyer as the author knows them: the name they gave, else their username. */
const buyerName = (o: AdminOrder) => o.buyer.displayName || o.buyer.username;

/** The filter's words for each status: "completed" is a paid order (for print, one still to ship). */
const STATUS_FILTER_LABELS: Record<PurchaseStatus, string> = {
  pending: 'Awaiting payment',
  completed: 'Paid',
  shipped: 'Shipped',
  refunded: 'Refunded',
};

/** The address a print order ships to, for the label. */
function ShipTo({ order }: { order: AdminOrder }) {
  const lines = isDigitalFormat(order.format) ? [] : addressLines(order.shippingAddress);
  if (lines.length === 0) return null;
  return (
    <address className="mt-1 block text-xs leading-relaxed text-bone-400 not-italic" aria-label={`Ship order ${order.orderReference} to`}>
      {lines.map((line, i) => (
        <span key={i} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}

export default function AdminOrdersPage() {
  const [filters, setFilters] = useState<OrderFilters>({ page: 1 });
  const [search, setSearch] = useState('');
  const orders = useOrders(filters);
  const action = useOrderAction();

  /** True when the action went through. */
  const run = async (order: AdminOrder, kind: 'ship' | 'reset-download' | 'refund', body?: ShipOrderInput | RefundOrderInput): Promise<boolean> => {
    try {
      await action.mutateAsync({ id: order.id, action: kind, body });
      toast({
        title: { ship: 'Order shipped', 'reset-download': 'Download reset', refund: 'Order refunded' }[kind],
        description:
          kind === 'reset-download'
            ? `${buyerName(order)} can download the ${formatLabel(order.format)} once more.`
            : `${buyerName(order)} has been told by email.`,
      });
      return true;
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
      return false;
    }
  };

  const page = orders.data;
  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;
  return (
    <AdminFrame
      title="Orders"
      actions={<ExportCsvButton url={exportUrl('/api/admin/orders/export.csv', { status: filters.status, format: filters.format, q: filters.q })} />}
    >
      <DownloadRequests />
      <FlaggedFeeds />
      <form
        className="mb-6 grid gap-4 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters((f) => ({ ...f, q: search.trim() || undefined, page: 1 }));
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor="orders-q">Search buyer or order reference</Label>
          <Input id="orders-q" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="orders-status">Status</Label>
          <Select id="orders-status" value={filters.status ?? ''} onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value || undefined, page: 1 }))}>
            <option value="">All</option>
            {PURCHASE_STATUSES.map((s) => <option key={s} value={s}>{STATUS_FILTER_LABELS[s]}</option>)}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="orders-format">Format</Label>
          <Select id="orders-format" value={filters.format ?? ''} onChange={(e) => setFilters((f) => ({ ...f, format: e.target.value || undefined, page: 1 }))}>
            <option value="">All</option>
            {ALL_FORMATS.map((s) => <option key={s} value={s}>{formatLabel(s)}</option>)}
          </Select>
        </div>
        <Button type="submit" variant="outline">Search</Button>
      </form>
      <QueryState query={orders}>
        {() =>
          page!.items.length === 0 ? (
            <EmptyState>No orders match.</EmptyState>
          ) : (
            <>
              <DataTable caption="Orders, newest first" columns={['Order', 'Buyer', 'Format', 'Price', 'Status', 'Download / shipping', { hidden: 'Actions' }]}>
                {page!.items.map((o) => (
                  <tr key={o.id} className={t.row} data-testid={`order-${o.id}`}>
                    <td className={t.td}>
                      <span className="font-mono text-xs">{o.orderReference}</span>
                      <span className="block text-xs text-bone-400">{formatDateTime(o.purchaseDate)}</span>
                    </td>
                    <td className={t.td}>
                      {buyerName(o)}
                      <span className="block text-xs text-bone-400">{o.buyer.email}</span>
                    </td>
                    <td className={t.td}>
                      {formatLabel(o.format)}
                      <span className="block text-xs text-bone-400">{o.book.title}</span>
                      <PaidByNote order={o} />
                    </td>
                    <td className={`${t.td} tabular-nums`}>
                      {formatPrice(o.price)}
                      {o.refundedAmount && o.status !== 'refunded' ? (
                        <span className="block text-xs text-bone-400">{formatPrice(o.refundedAmount)} refunded</span>
                      ) : null}
                    </td>
                    <td className={t.td}>
                      <Badge variant={o.status === 'completed' ? 'default' : 'outline'}>{adminStatusLabel(o.status, o.format)}</Badge>
                      <RefundedNote order={o} />
                      <RefundList order={o} />
                    </td>
                    <td className={t.td}>
                      {downloadUse(o)}
                      <ShipTo order={o} />
                      {o.format === 'ebook' && o.kind !== 'gift' ? <OrderKindleSends orderId={o.id} /> : null}
                    </td>
                    <td className={`${t.td} text-right`}>
                      <div className="flex flex-wrap justify-end gap-2">
                      {!isDigitalFormat(o.format) && o.status === 'completed' ? (
                        <ShipButton order={o} busy={action.isPending} onShip={(tracking) => run(o, 'ship', tracking)} />
                      ) : null}
                      {isDigitalFormat(o.format) && o.status === 'completed' && (o.downloadUsed || o.downloadCount > 0) ? (
                        <Button size="sm" variant="outline" disabled={action.isPending} onClick={() => run(o, 'reset-download')} aria-label={`Reset download for order ${o.orderReference}`}>
                          <RotateCcw aria-hidden="true" />
                          Reset download
                        </Button>
                      ) : null}
                      {canRefund(o) ? <RefundButton order={o} busy={action.isPending} onRefund={(amount) => run(o, 'refund', amount === undefined ? undefined : { amount })} /> : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </DataTable>
              <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm text-bone-300">
                <span>
                  {page!.totalCapped
                    ? `More than ${page!.total.toLocaleString('en-GB')} orders · page ${page!.page}`
                    : `${page!.total.toLocaleString('en-GB')} ${page!.total === 1 ? 'order' : 'orders'} · page ${page!.page} of ${pages}`}
                </span>
                <span className="flex gap-2">
                  <Button size="sm" variant="ghost" disabled={page!.page <= 1} onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}>Previous</Button>
                  <Button size="sm" variant="ghost" disabled={!page!.nextCursor} onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}>Next</Button>
                </span>
              </nav>
            </>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
