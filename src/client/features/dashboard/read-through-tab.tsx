/**
 * Read-through (decision 0089): how far owners got in each format, the share who reached each chapter.
 * The server withholds any chapter fewer than 5 readers reached; there is no per-reader view.
 */
import { Alert } from '@client/components/ui/alert';
import { Skeleton } from '@client/components/ui/skeleton';
import type { ReadThroughFormat } from '@shared/schemas/read-through';
import { useReadThrough } from './api';
import { BarChart } from './bar-chart';

const FORMAT_NAME = { ebook: 'E-Book', audiobook: 'Audiobook' } as const;
const share = (n: number) => `${Math.round(n * 100)}%`;
const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** Finishing: how many reached the end, how long they took, and whether they went on to the next book. */
function finishingLine(f: ReadThroughFormat, minimum: number, nextTitle: string | null): string {
  if (f.finishers === null) return `Fewer than ${minimum} owners have finished it so far.`;
  const parts = [`${f.finishers} finished it, in ${days(f.medianDaysToFinish ?? 0)} (median) from owning it.`];
  if (nextTitle) {
    parts.push(
      f.finishersWhoBoughtNext === null
        ? `Fewer than ${minimum} of them own ${nextTitle}.`
        : `${f.finishersWhoBoughtNext} of them (${share(f.finishersWhoBoughtNext / f.finishers)}) own ${nextTitle}.`,
    );
  }
  return parts.join(' ');
}

export function ReadThroughTab() {
  const query = useReadThrough();
  if (query.isPending) return <Skeleton className="h-48" />;
  if (query.isError) return <Alert variant="destructive">The read-through chart could not be loaded. Please try again later.</Alert>;
  const { formats, minimumReaders, nextBook } = query.data;
  return (
    <div className="grid gap-6">
      <p className="text-sm text-bone-300">
        The share of owners who reached each chapter, from the places saved by the reader and the player. Chapters fewer than{' '}
        {minimumReaders} readers reached are not shown, and readers who opted out are not counted.
      </p>
      {formats.length === 0 ? <Alert>This book has no e-book or audiobook chapters yet.</Alert> : null}
      {formats.map((f) => (
        <section key={f.format} aria-labelledby={`read-through-${f.format}`} className="rounded-xl border border-ink-700 bg-ink-900/80 p-4 sm:p-6">
          <h3 id={`read-through-${f.format}`} className="font-display text-xl text-bone-50">
            {FORMAT_NAME[f.format]}
          </h3>
          <p className="mt-1 text-sm text-bone-300">{f.owners === null ? `Fewer than ${minimumReaders} owners counted so far.` : `${f.owners} owners counted.`}</p>
          {f.owners !== null ? <p className="mt-1 text-sm text-bone-300">{finishingLine(f, minimumReaders, nextBook?.title ?? null)}</p> : null}
          {f.owners !== null ? (
            <div className="mt-4">
              <BarChart
                data={f.chapters.map((c, i) => ({ label: String(i + 1), value: c.reached ?? 0 }))}
                summary={`${FORMAT_NAME[f.format]} read-through: ${f.chapters.map((c) => `${c.title} ${c.hidden ? 'not shown' : share(c.reached!)}`).join(', ')}`}
                format={share}
              />
            </div>
          ) : null}
          <table className="mt-4 w-full text-left text-sm">
            <thead>
              <tr className="text-bone-300">
                <th scope="col" className="py-1 font-medium">Chapter</th>
                <th scope="col" className="py-1 text-right font-medium">Reached</th>
              </tr>
            </thead>
            <tbody>
              {f.chapters.map((c, i) => (
                <tr key={`${i}-${c.title}`} className="border-t border-ink-800">
                  <td className="py-1.5 text-bone-100">{c.title}</td>
                  <td className="py-1.5 text-right tabular-nums text-bone-200">{c.hidden ? `Fewer than ${minimumReaders} readers` : share(c.reached!)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
