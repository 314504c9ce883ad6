/** /admin/bundles: the "Bundles" page: formats sold together at one price; create, edit, switch off or on. */
import { useState } from 'react';
import { Pencil } from 'lucide-react';
import type { AdminBundle, BundleInput } from '@shared/schemas/bundles';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { useBooks } from '@client/features/admin/api';
import { BundleForm } from '@client/features/admin/bundles/bundle-form';
import { useAdminBundles, useSaveBundle, withActive } from '@client/features/admin/bundles/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { errorText } from '@client/lib/api-errors';

const parts = (b: AdminBundle) => b.items.map((i) => `${i.title} (${i.formatLabel})`).join(', ');

export default function AdminBundlesPage() {
  const bundles = useAdminBundles();
  const books = useBooks();
  const save = useSaveBundle();
  const [editing, setEditing] = useState<number | null>(null);

  const onSave = (id: number | null) => async (input: BundleInput) => {
    const saved = await save.mutateAsync({ id, input });
    toast({ title: id === null ? 'Bundle created' : 'Bundle saved', description: `${saved.name}: ${saved.displayPrice}.` });
    setEditing(null);
  };

  const switchTo = async (b: AdminBundle, active: boolean) => {
    try {
      await save.mutateAsync({ id: b.id, input: withActive(b, active) });
      toast({ title: active ? 'Bundle on sale' : 'Bundle switched off', description: active ? `${b.name} is on sale again.` : `${b.name} is no longer on sale.` });
    } catch (error) {
      toast({ title: 'Could not change the bundle', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <AdminFrame title="Bundles" intro="Formats of one or more books sold together at one price. A reader who owns part of a bundle pays its price less what they paid for that part.">
      <QueryState query={books}>
        {() => (
          <>
            <section aria-labelledby="new-bundle" className="mb-8 grid gap-3">
              <h2 id="new-bundle" className="font-display text-xl font-semibold text-bone-50">
                New bundle
              </h2>
              <BundleForm bundle={null} books={books.data!} saving={save.isPending && editing === null} onSave={onSave(null)} />
            </section>
            <QueryState query={bundles}>
              {() =>
                bundles.data!.length === 0 ? (
                  <EmptyState>No bundles yet.</EmptyState>
                ) : (
                  <div className="grid gap-4">
                    <DataTable caption="Bundles" columns={['Bundle', 'Holds', 'Price', 'Status', { hidden: 'Actions' }]}>
                      {bundles.data!.map((b) => (
                        <tr key={b.id} className={t.row} data-testid={`bundle-${b.id}`}>
                          <td className={t.td}>{b.name}</td>
                          <td className={t.td}>{parts(b)}</td>
                          <td className={`${t.td} tabular-nums`}>{b.displayPrice}</td>
                          <td className={t.td}>
                            <Badge variant={b.active ? 'default' : 'outline'}>{b.active ? 'On sale' : 'Off'}</Badge>
                          </td>
                          <td className={`${t.td} text-right`}>
                            <div className="flex justify-end gap-2">
                              <Button size="sm" variant="outline" onClick={() => setEditing(b.id)} aria-label={`Edit ${b.name}`}>
                                <Pencil aria-hidden="true" />
                                Edit
                              </Button>
                              <Button size="sm" variant="outline" disabled={save.isPending} onClick={() => void switchTo(b, !b.active)} aria-label={`${b.active ? 'Switch off' : 'Switch on'} ${b.name}`}>
                                {b.active ? 'Switch off' : 'Switch on'}
                              </Button>
                            </div>
                          </td>
                        </tr>
                      ))}
                    </DataTable>
                    {editing !== null && bundles.data!.some((b) => b.id === editing) ? (
                      <section aria-label="Edit bundle" className="grid gap-3">
                        <BundleForm key={editing} bundle={bundles.data!.find((b) => b.id === editing)!} books={books.data!} saving={save.isPending} onSave={onSave(editing)} onCancel={() => setEditing(null)} />
                      </section>
                    ) : null}
                  </div>
                )
              }
            </QueryState>
          </>
        )}
      </QueryState>
    </AdminFrame>
  );
}
