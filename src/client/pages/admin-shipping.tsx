/** /admin/shipping: the "Shipping" page: the zones print ships to, a form to add one, edit and delete in place. */
import { useState } from 'react';
import { Pencil, Trash2 } from 'lucide-react';
import type { ShippingZoneInput } from '@shared/schemas/shipping';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { useDeleteZone, useSaveZone, useShippingZones } from '@client/features/admin/shipping/api';
import { ZoneForm } from '@client/features/admin/shipping/zone-form';
import { errorText } from '@client/lib/api-errors';
import { formatMoney } from '@client/lib/format';

export default function AdminShippingPage() {
  const zones = useShippingZones();
  const save = useSaveZone();
  const remove = useDeleteZone();
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);

  const onSave = (id: number | null) => async (input: ShippingZoneInput) => {
    const saved = await save.mutateAsync({ id, input });
    toast({ title: id === null ? 'Shipping zone created' : 'Shipping zone saved', description: `${saved.name}: ${saved.countries.join(', ')}.` });
    setEditing(null);
  };

  const onDelete = async (id: number, name: string) => {
    try {
      await remove.mutateAsync(id);
      toast({ title: 'Shipping zone deleted', description: `${name} no longer ships.` });
      if (editing === id) setEditing(null);
    } catch (error) {
      toast({ title: 'Could not delete the zone', description: errorText(error), variant: 'destructive' });
    }
    setDeleting(null);
  };

  return (
    <AdminFrame title="Shipping" intro="Where printed books ship and what it costs. With no zones, print ships free everywhere; with zones, a country outside every zone is refused before payment.">
      <section aria-labelledby="new-zone" className="mb-8 grid gap-3">
        <h2 id="new-zone" className="font-display text-xl font-semibold text-bone-50">
          New zone
        </h2>
        <ZoneForm zone={null} saving={save.isPending && editing === null} onSave={onSave(null)} />
      </section>
      <QueryState query={zones}>
        {() =>
          zones.data!.length === 0 ? (
            <EmptyState>No shipping zones yet.</EmptyState>
          ) : (
            <div className="grid gap-4">
              <DataTable caption="Shipping zones" columns={['Zone', 'Countries', 'First item', 'Each further', 'Free from', { hidden: 'Actions' }]}>
                {zones.data!.map((z) => (
                  <tr key={z.id} className={t.row} data-testid={`zone-${z.id}`}>
                    <td className={t.td}>{z.name}</td>
                    <td className={`${t.td} font-mono`}>{z.countries.join(', ')}</td>
                    <td className={`${t.td} tabular-nums`}>{formatMoney(z.firstItem)}</td>
                    <td className={`${t.td} tabular-nums`}>{formatMoney(z.additionalItem)}</td>
                    <td className={`${t.td} tabular-nums`}>{z.freeOver === null ? 'Never' : formatMoney(z.freeOver)}</td>
                    <td className={`${t.td} text-right`}>
                      <div className="flex justify-end gap-2">
                        {deleting === z.id ? (
                          <>
                            <Button size="sm" variant="destructive" disabled={remove.isPending} onClick={() => void onDelete(z.id, z.name)}>
                              Yes, delete {z.name}
                            </Button>
                            <Button size="sm" variant="outline" onClick={() => setDeleting(null)}>
                              Keep
                            </Button>
                          </>
                        ) : (
                          <>
                            <Button size="sm" variant="outline" onClick={() => setEditing(z.id)} aria-label={`Edit ${z.name}`}>
                              <Pencil aria-hidden="true" />
                              Edit
                            </Button>
                            <Button size="sm" variant="outline" onClick={() => setDeleting(z.id)} aria-label={`Delete ${z.name}`}>
                              <Trash2 aria-hidden="true" />
                              Delete
                            </Button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </DataTable>
              {editing !== null && zones.data!.some((z) => z.id === editing) ? (
                <section aria-label="Edit zone" className="grid gap-3">
                  <ZoneForm key={editing} zone={zones.data!.find((z) => z.id === editing)!} saving={save.isPending} onSave={onSave(editing)} onCancel={() => setEditing(null)} />
                </section>
              ) : null}
            </div>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
