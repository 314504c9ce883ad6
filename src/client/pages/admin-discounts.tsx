/** /admin/discounts: the "Discount Codes" page: every code with its uses, a form to add one, edit in place. */
import { useState } from 'react';
import { Pencil } from 'lucide-react';
import { type Discount, describeDiscount } from '@shared/schemas/discounts';
import { formatLabel } from '@shared/constants';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { ShowMore } from '@client/features/admin/components/list-paging';
import { useDiscounts, useSaveDiscount } from '@client/features/discounts/api';
import { DiscountForm } from '@client/features/discounts/components/discount-form';
import { formatDateTime } from '@client/lib/format';

function status(d: Discount, now: number): { label: string; live: boolean } {
  if (!d.active) return { label: 'Inactive', live: false };
  if (d.expiresAt && new Date(d.expiresAt).getTime() <= now) return { label: 'Expired', live: false };
  if (d.maxRedemptions != null && d.redemptions >= d.maxRedemptions) return { label: 'Used up', live: false };
  return { label: 'Active', live: true };
}

export default function AdminDiscountsPage() {
  const discounts = useDiscounts();
  const save = useSaveDiscount();
  const rows = discounts.data?.pages.flatMap((p) => p.items) ?? [];
  const [editing, setEditing] = useState<number | null>(null);
  const now = Date.now();

  const onSave = (id: number | null) => async (input: Parameters<typeof save.mutateAsync>[0]['input']) => {
    const saved = await save.mutateAsync({ id, input });
    toast({ title: id === null ? 'Discount code created' : 'Discount code saved', description: `${saved.code}: ${describeDiscount(saved)}.` });
    setEditing(null);
  };

  return (
    <AdminFrame title="Discount Codes" intro="Codes readers type at checkout. A use is counted when the order is paid; the price never goes below £0.30.">
      <section aria-labelledby="new-code" className="mb-8 grid gap-3">
        <h2 id="new-code" className="font-display text-xl font-semibold text-bone-50">
          New code
        </h2>
        <DiscountForm discount={null} saving={save.isPending && editing === null} onSave={onSave(null)} />
      </section>
      <QueryState query={discounts}>
        {() =>
          rows.length === 0 ? (
            <EmptyState>No discount codes yet.</EmptyState>
          ) : (
            <div className="grid gap-4">
              <DataTable caption="Discount codes" columns={['Code', 'Discount', 'Formats', 'Expires', 'Uses', 'Status', { hidden: 'Actions' }]}>
                {rows.map((d) => {
                  const s = status(d, now);
                  return (
                    <tr key={d.id} className={t.row} data-testid={`discount-${d.id}`}>
                      <td className={`${t.td} font-mono`}>{d.code}</td>
                      <td className={t.td}>{describeDiscount(d)}</td>
                      <td className={t.td}>{d.formats ? d.formats.map(formatLabel).join(', ') : 'All formats'}</td>
                      <td className={t.td}>{d.expiresAt ? formatDateTime(d.expiresAt) : 'Never'}</td>
                      <td className={`${t.td} tabular-nums`}>
                        {d.redemptions}
                        {d.maxRedemptions != null ? ` of ${d.maxRedemptions}` : ''}
                      </td>
                      <td className={t.td}>
                        <Badge variant={s.live ? 'default' : 'outline'}>{s.label}</Badge>
                      </td>
                      <td className={`${t.td} text-right`}>
                        <Button size="sm" variant="outline" onClick={() => setEditing(d.id)} aria-label={`Edit ${d.code}`}>
                          <Pencil aria-hidden="true" />
                          Edit
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </DataTable>
              <ShowMore pages={discounts} />
              {editing !== null && rows.some((d) => d.id === editing) ? (
                <section aria-label="Edit code" className="grid gap-3">
                  <DiscountForm
                    key={editing}
                    discount={rows.find((d) => d.id === editing)!}
                    saving={save.isPending}
                    onSave={onSave(editing)}
                    onCancel={() => setEditing(null)}
                  />
                </section>
              ) : null}
            </div>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
