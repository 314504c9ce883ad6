/** The small print of a book: its place in a series and whether it is out yet. */
import { seriesLabel, type CatalogueBook } from '@shared/schemas/catalogue';
import { preOrderNotice } from '@shared/schemas/pre-orders';

export function SeriesLine({ book, className }: { book: CatalogueBook; className?: string }) {
  const label = seriesLabel(book);
  return label ? <p className={className ?? 'text-xs font-semibold tracking-[0.2em] text-blood-400 uppercase'}>{label}</p> : null;
}

/** "Pre-order, available on {date}" while the release date is ahead; null once the book is out. */
export function releaseNote(book: CatalogueBook, now = Date.now()): string | null {
  if (!book.releaseAt || new Date(book.releaseAt).getTime() <= now) return null;
  return preOrderNotice(book.releaseAt);
}
