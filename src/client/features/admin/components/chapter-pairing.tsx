/**
 * The read <-> listen pairing of one book (decision 0088), on the files page: each e-book chapter with the
 * audiobook chapter it goes with. Made from the files by title and order; the author corrects it here.
 */
import { useEffect, useId, useState } from 'react';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { errorText } from '@client/lib/api-errors';
import { useAdminSyncMap, useCorrectSyncMap } from '../api';

const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export function ChapterPairing({ bookId, title }: { bookId: number; title: string }) {
  const map = useAdminSyncMap(bookId, true);
  const correct = useCorrectSyncMap(bookId);
  const id = useId();
  // The audiobook chapter chosen for each e-book chapter (by spine index); '' = not paired.
  const [chosen, setChosen] = useState<Record<number, string>>({});
  useEffect(() => {
    if (map.data) setChosen(Object.fromEntries(map.data.pairs.map((p) => [p.ebook.index, String(p.audiobook.index)])));
  }, [map.data]);

  if (map.isPending) return null;
  if (map.isError || !map.data) return null;
  const { ebookChapters, audiobookChapters, corrected } = map.data;
  const values = Object.values(chosen).filter((v) => v !== '');
  const repeated = values.length !== new Set(values).size;

  const save = async (pairs: Array<{ ebook: number; audiobook: number }> | null) => {
    try {
      await correct.mutateAsync(pairs);
      toast({ title: pairs ? 'Pairing saved' : 'Paired by title and order' });
    } catch (error) {
      toast({ title: 'The pairing was not saved', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 rounded-lg border border-ink-700 p-4">
      <h3 id={`${id}-title`} className="font-medium text-bone-50">
        Read and listen: chapter pairing
      </h3>
      <p className="mt-1 text-sm text-bone-400">
        {corrected ? 'You set this pairing.' : 'Paired by title and order from the two files.'} Readers who own both formats switch
        between them at these chapters.
      </p>
      <ol className="mt-3 grid gap-2">
        {ebookChapters.map((chapter) => (
          <li key={chapter.index} className="grid items-center gap-2 sm:grid-cols-2">
            <label htmlFor={`${id}-${chapter.index}`} className="text-sm text-bone-200">
              {chapter.title}
            </label>
            <select
              id={`${id}-${chapter.index}`}
              aria-label={`Audiobook chapter for ${chapter.title} (${title})`}
              value={chosen[chapter.index] ?? ''}
              onChange={(e) => setChosen((c) => ({ ...c, [chapter.index]: e.target.value }))}
              className="h-9 rounded-md border border-ink-600 bg-ink-950 px-2 text-sm text-bone-50"
            >
              <option value="">Not paired</option>
              {audiobookChapters.map((a) => (
                <option key={a.index} value={String(a.index)}>
                  {a.title} ({clock(a.start)})
                </option>
              ))}
            </select>
          </li>
        ))}
      </ol>
      {repeated ? (
        <p role="alert" className="mt-2 text-sm text-blood-300">
          Each audiobook chapter can be paired once.
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={repeated || correct.isPending}
          onClick={() =>
            void save(
              Object.entries(chosen)
                .filter(([, v]) => v !== '')
                .map(([ebook, audiobook]) => ({ ebook: Number(ebook), audiobook: Number(audiobook) })),
            )
          }
        >
          Save pairing
        </Button>
        {corrected ? (
          <Button size="sm" variant="outline" disabled={correct.isPending} onClick={() => void save(null)}>
            Pair by title and order
          </Button>
        ) : null}
      </div>
    </section>
  );
}
