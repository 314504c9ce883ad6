/** One purchased book in the library: cover, title, "{n} format(s) purchased" and a row per format. */
import { BookOpen, File, FileText, Headphones } from 'lucide-react';
import { preOrderNotice } from '@shared/schemas/pre-orders';
import { formatLabel } from '@shared/constants';
import type { LibraryItem } from '@shared/schemas/library';
import type { ReactNode } from 'react';
import type { LibraryGroup } from '../group';
import { DownloadControl, type DownloadHandlers } from './download-control';

const FORMATS: Record<string, { label: string; Icon: typeof File }> = {
  ebook: { label: 'E-Book', Icon: BookOpen },
  audiobook: { label: 'Audiobook', Icon: Headphones },
  pdf: { label: 'PDF', Icon: FileText },
};

export function formatDisplay(format: string) {
  return FORMATS[format] ?? { label: format, Icon: File };
}

interface Props {
  group: LibraryGroup;
  handlers: DownloadHandlers;
  /** What the page adds beside a format's download button (the reading room, Send to Kindle). */
  itemActions?: LibraryItemActions;
  /** What the page adds for the whole book (its review). */
  bookActions?: LibraryBookActions;
}

export type LibraryBookActions = (book: { id: number; title: string }) => ReactNode;
export type LibraryItemActions = (item: LibraryItem, context: { label: string; title: string }) => ReactNode;

export function LibraryBookCard({ group, handlers, itemActions, bookActions }: Props) {
  const count = group.items.length;
  return (
    <li className="overflow-hidden rounded-xl border border-ink-700 bg-ink-900/80 shadow-xl shadow-black/30">
      <div className="flex gap-5 p-5 sm:p-6">
        <img
          src={group.book.coverImage}
          alt={`Cover of ${group.book.title}`}
          className="h-32 w-[5.5rem] shrink-0 rounded-sm border border-ink-700 object-cover shadow-lg shadow-black/50"
        />
        <div className="min-w-0">
          <h3 className="font-display text-2xl font-semibold text-bone-50">{group.book.title}</h3>
          <p className="mt-1 text-sm text-bone-400">
            {count} format{count === 1 ? '' : 's'} purchased
          </p>
          {bookActions ? <div className="mt-3">{bookActions({ id: group.book.id, title: group.book.title })}</div> : null}
        </div>
      </div>
      <ul className="divide-y divide-ink-700 border-t border-ink-700">
        {group.items.map((item) => {
          const { label, Icon } = formatDisplay(item.format);
          return (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4 sm:px-6">
              <span className="flex items-center gap-3 text-bone-100">
                <span className="grid size-9 place-items-center rounded-md border border-ink-600 bg-ink-950 text-blood-400">
                  <Icon aria-hidden="true" className="size-4" data-testid={`format-icon-${FORMATS[item.format] ? item.format : 'generic'}`} />
                </span>
                <span>
                  <span className="font-medium">{label}</span>
                  {item.updated ? (
                    // The author replaced this file and told its owners; gone after the next download (0091).
                    <span className="ml-2 rounded-full border border-blood-400/60 px-2 py-0.5 text-xs text-blood-200">Updated</span>
                  ) : null}
                  {item.includedWith ? (
                    <span className="block text-xs text-bone-400">Included with your {formatLabel(item.includedWith).toLowerCase()}</span>
                  ) : null}
                </span>
              </span>
              {item.availableAt ? (
                // A pre-order: nothing to read or download before the release.
                <span className="rounded-full border border-bone-300/30 px-3 py-1 text-sm text-bone-200">{preOrderNotice(item.availableAt)}</span>
              ) : item.fileReady === false ? (
                // Out, but its file is not uploaded yet: no dead download; the buyer is mailed when it is in.
                <span className="max-w-xs text-sm text-bone-300 sm:text-right">
                  <span className="block font-medium text-bone-100">Not ready yet</span>
                  We will email you the moment this file is in your library.
                </span>
              ) : (
                <span className="flex flex-wrap items-center justify-end gap-3">
                  {itemActions?.(item, { label, title: group.book.title })}
                  <DownloadControl item={item} label={label} handlers={handlers} />
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </li>
  );
}
