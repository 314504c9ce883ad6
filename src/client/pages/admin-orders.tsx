/** /admin/orders: every purchase; mark physical orders shipped, reset a buyer's download. */
import { useState } from 'react';
import { RotateCcw, Truck } from 'lucide-react';
import { ALL_FORMATS, PURCHASE_STATUSES, formatPrice, isDigitalFormat } from '@shared/constants';
import type { AdminOrder } from '@shared/schemas/admin';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { toast } from '@client/components/ui/toast-store';
import { useOrderAction, useOrders, type OrderFilters } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { formatDateTime } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';
import { PaidByNote, RefundButton, RefundedNote, canRefund } from '@client/features/admin/orders/refund';
import { OrderKindleSends } from '@client/features/copies/components/order-kindle-sends';

function downloadUse(o: AdminOrder): string {
  if (!isDigitalFormat(o.format)) return o.shippedAt ? `Shipped ${formatDateTime(o.shippedAt)}` : 'Not shipped';
  // The buyer of a gift never downloads it; the recipient's claimed row counts the download.
  if (o.kind === 'gift') return 'Downloaded by the recipient';
  return `${o.downloadCount} of ${o.maxDownloads} used`;
}

export default function AdminOrdersPage() {
  const [filters, setFilters] = useState<OrderFilters>({ page: 1 });
  const [search, setSearch] = useState('');
  const orders = useOrders(filters);
  const action = useOrderAction();

  const run = async (order: AdminOrder, kind: 'ship' | 'reset-download' | 'refund') => {
    try {
      await action.mutateAsync({ id: order.id, action: kind });
      toast({
        title: { ship: 'Order shipped', 'reset-download': 'Download reset', refund: 'Order refunded' }[kind],
        description: kind === 'reset-download' ? `${order.buyer.username} can download the ${order.format} once more.` : `${order.buyer.username} has been told by email.`,
      });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  const page = orders.data;
  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;
  return (
    <AdminFrame title="Orders">
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
            {PURCHASE_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="orders-format">Format</Label>
          <Select id="orders-format" value={filters.format ?? ''} onChange={(e) => setFilters((f) => ({ ...f, format: e.target.value || undefined, page: 1 }))}>
            <option value="">All</option>
            {ALL_FORMATS.map((s) => <option key={s} value={s}>{s}</option>)}
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
                      {o.buyer.displayName ?? o.buyer.username}
                      <span className="block text-xs text-bone-400">{o.buyer.email}</span>
                    </td>
                    <td className={t.td}>
                      {o.format}
                      <span className="block text-xs text-bone-400">{o.book.title}</span>
                      <PaidByNote order={o} />
                    </td>
                    <td className={`${t.td} tabular-nums`}>{formatPrice(o.price)}</td>
                    <td className={t.td}>
                      <Badge variant={o.status === 'completed' ? 'default' : 'outline'}>{o.status}</Badge>
                      <RefundedNote order={o} />
                    </td>
                    <td className={t.td}>
                      {downloadUse(o)}
                      {o.format === 'ebook' && o.kind !== 'gift' ? <OrderKindleSends orderId={o.id} /> : null}
                    </td>
                    <td className={`${t.td} text-right`}>
                      <div className="flex flex-wrap justify-end gap-2">
                      {!isDigitalFormat(o.format) && o.status === 'completed' ? (
                        <Button size="sm" variant="outline" disabled={action.isPending} onClick={() => run(o, 'ship')} aria-label={`Mark order ${o.orderReference} shipped`}>
                          <Truck aria-hidden="true" />
                          Mark shipped
                        </Button>
                      ) : null}
                      {isDigitalFormat(o.format) && o.status === 'completed' && (o.downloadUsed || o.downloadCount > 0) ? (
                        <Button size="sm" variant="outline" disabled={action.isPending} onClick={() => run(o, 'reset-download')} aria-label={`Reset download for order ${o.orderReference}`}>
                          <RotateCcw aria-hidden="true" />
                          Reset download
                        </Button>
                      ) : null}
                      {canRefund(o) ? <RefundButton order={o} busy={action.isPending} onRefund={() => run(o, 'refund')} /> : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </DataTable>
              <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm text-bone-300">
                <span>{page!.total.toLocaleString('en-GB')} {page!.total === 1 ? 'order' : 'orders'} · page {page!.page} of {pages}</span>
                <span className="flex gap-2">
                  <Button size="sm" variant="ghost" disabled={page!.page <= 1} onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}>Previous</Button>
                  <Button size="sm" variant="ghost" disabled={page!.page >= pages} onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}>Next</Button>
                </span>
              </nav>
            </>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
