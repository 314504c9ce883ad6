/**
 * Read <-> listen (decision 0088): where the other format opens, from the book's chapter pairing, and
 * which of the two progress lines the library shows.
 */
import type { ProgressSummary } from '@shared/schemas/reading';
import type { SyncMapAnswer } from '@shared/schemas/sync-map';

/**
 * The player's address at the start of the audiobook chapter paired with the reader's place: the spine
 * section on screen (`section`, in the reader's own copy, whose section paths are `spine`), or the nearest
 * paired one before it (a section the contents do not name is the rest of the chapter before it).
 */
export function listenTarget(map: SyncMapAnswer, bookId: number, spine: readonly string[], section: number): string | null {
  for (let i = Math.min(section, spine.length - 1); i >= 0; i -= 1) {
    const pair = map.pairs.find((p) => p.ebook.path === spine[i]);
    if (pair) return `/listen/${bookId}?at=${pair.audiobook.start}`;
  }
  return null;
}

/** The reader's address at the e-book chapter paired with the audiobook chapter the listener is in. */
export function readTarget(map: SyncMapAnswer, bookId: number, seconds: number): string | null {
  // The player's own rule for "in a chapter": a quarter second before its start counts.
  const pair = [...map.pairs].sort((a, b) => a.audiobook.start - b.audiobook.start).filter((p) => p.audiobook.start <= seconds + 0.25).at(-1);
  return pair ? `/read/${bookId}/ebook?chapter=${encodeURIComponent(pair.ebook.path)}` : null;
}

const SWITCHED = ['ebook', 'audiobook'];

/**
 * The position the library shows beside a format: its own, except that of a book read and heard, only the
 * format used last has a line (it is where the reader is in the book).
 */
export function shownProgress(all: ProgressSummary[], bookId: number, format: string): ProgressSummary | undefined {
  const own = all.find((p) => p.bookId === bookId && p.format === format);
  if (!own || !SWITCHED.includes(format)) return own;
  const other = all.find((p) => p.bookId === bookId && p.format !== format && SWITCHED.includes(p.format));
  return other && Date.parse(other.updatedAt) > Date.parse(own.updatedAt) ? undefined : own;
}
