/**
 * /admin/free-book: the "Free book" page (decision 0097): a digital format offered to new subscribers at
 * /free/{slug}; create, edit, switch off or on, remove; and per offer the requests, claims and later buyers
 * per `?source=`.
 */
import { useState } from 'react';
import { ExternalLink, Pencil, Trash2 } from 'lucide-react';
import type { AdminFreeBook, FreeBookInput } from '@shared/schemas/free-books';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { useBooks } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { useAdminFreeBooks, useDeleteFreeBook, useSaveFreeBook, withActive } from '@client/features/admin/free-books/api';
import { FreeBookForm } from '@client/features/admin/free-books/free-book-form';
import { errorText } from '@client/lib/api-errors';

const NO_SOURCE = 'No source';

function Figures({ g }: { g: AdminFreeBook }) {
  return (
    <DataTable caption={`Claims of /free/${g.slug} per source`} columns={['Source', 'Requested', 'Claimed', 'Bought later']}>
      {g.sources.map((s) => (
        <tr key={s.source ?? ''} className={t.row}>
          <td className={t.td}>{s.source ?? NO_SOURCE}</td>
          <td className={`${t.td} tabular-nums`}>{s.requested}</td>
          <td className={`${t.td} tabular-nums`}>{s.claimed}</td>
          <td className={`${t.td} tabular-nums`}>{s.boughtLater}</td>
        </tr>
      ))}
      <tr className={`${t.row} font-semibold`}>
        <td className={t.td}>All sources</td>
        <td className={`${t.td} tabular-nums`}>{g.totals.requested}</td>
        <td className={`${t.td} tabular-nums`}>{g.totals.claimed}</td>
        <td className={`${t.td} tabular-nums`}>{g.totals.boughtLater}</td>
      </tr>
    </DataTable>
  );
}

export default function AdminFreeBookPage() {
  const offers = useAdminFreeBooks();
  const books = useBooks();
  const save = useSaveFreeBook();
  const remove = useDeleteFreeBook();
  const [editing, setEditing] = useState<number | null>(null);

  const onSave = (id: number | null) => async (input: FreeBookInput) => {
    const saved = await save.mutateAsync({ id, input });
    toast({ title: id === null ? 'Free book created' : 'Free book saved', description: `${saved.bookTitle} (${saved.formatLabel}) at /free/${saved.slug}.` });
    setEditing(null);
  };

  const switchTo = async (g: AdminFreeBook, active: boolean) => {
    try {
      await save.mutateAsync({ id: g.id, input: withActive(g, active) });
      toast({ title: active ? 'Free book on offer' : 'Free book switched off', description: active ? `/free/${g.slug} is on offer again.` : `/free/${g.slug} is no longer on offer.` });
    } catch (error) {
      toast({ title: 'Could not change the free book', description: errorText(error), variant: 'destructive' });
    }
  };

  const removeOffer = async (g: AdminFreeBook) => {
    if (!window.confirm(`Remove /free/${g.slug} and its figures? Readers who claimed it keep their copy.`)) return;
    try {
      await remove.mutateAsync(g.id);
      toast({ title: 'Free book removed', description: `/free/${g.slug} is gone; claimed copies stay in their readers' libraries.` });
    } catch (error) {
      toast({ title: 'Could not remove the free book', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <AdminFrame
      title="Free book"
      intro="Give a digital format to readers who join the Thriller Circle. Its page /free/{address} takes an email; confirming from the mail puts the book in the reader's library. Add ?source=name to the links you share to see which brings readers."
    >
      <QueryState query={books}>
        {() => (
          <>
            <section aria-labelledby="new-free-book" className="mb-8 grid gap-3">
              <h2 id="new-free-book" className="font-display text-xl font-semibold text-bone-50">
                New free book
              </h2>
              <FreeBookForm freeBook={null} books={books.data!} saving={save.isPending && editing === null} onSave={onSave(null)} />
            </section>
            <QueryState query={offers}>
              {() =>
                offers.data!.length === 0 ? (
                  <EmptyState>No free books yet.</EmptyState>
                ) : (
                  <div className="grid gap-8">
                    {offers.data!.map((g) => (
                      <section key={g.id} aria-label={`/free/${g.slug}`} data-testid={`free-book-${g.id}`} className="grid gap-4 rounded-xl border border-ink-700 p-5">
                        <div className="flex flex-wrap items-start justify-between gap-3">
                          <div className="grid gap-1">
                            <h2 className="font-display text-lg font-semibold text-bone-50">
                              {g.bookTitle} ({g.formatLabel})
                            </h2>
                            <a href={`/free/${g.slug}`} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm text-blood-300 hover:underline">
                              /free/{g.slug}
                              <ExternalLink aria-hidden="true" className="size-3" />
                            </a>
                          </div>
                          <Badge variant={g.active ? 'default' : 'outline'}>{g.active ? 'On offer' : 'Off'}</Badge>
                        </div>
                        <p className="text-sm whitespace-pre-line text-bone-300">{g.pitch}</p>
                        <Figures g={g} />
                        <div className="flex flex-wrap gap-2">
                          <Button size="sm" variant="outline" onClick={() => setEditing(g.id)} aria-label={`Edit /free/${g.slug}`}>
                            <Pencil aria-hidden="true" />
                            Edit
                          </Button>
                          <Button size="sm" variant="outline" disabled={save.isPending} onClick={() => void switchTo(g, !g.active)} aria-label={`${g.active ? 'Switch off' : 'Switch on'} /free/${g.slug}`}>
                            {g.active ? 'Switch off' : 'Switch on'}
                          </Button>
                          <Button size="sm" variant="outline" disabled={remove.isPending} onClick={() => void removeOffer(g)} aria-label={`Remove /free/${g.slug}`}>
                            <Trash2 aria-hidden="true" />
                            Remove
                          </Button>
                        </div>
                        {editing === g.id ? (
                          <FreeBookForm key={g.id} freeBook={g} books={books.data!} saving={save.isPending} onSave={onSave(g.id)} onCancel={() => setEditing(null)} />
                        ) : null}
                      </section>
                    ))}
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
