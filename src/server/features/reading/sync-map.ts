/**
 * Read <-> listen (decision 0088): a book's e-book chapters paired with its audiobook chapters. Made from
 * the two files by title and order whenever it is asked for (so a new upload of either is paired at once),
 * unless the author has corrected it; the correction is kept across uploads, less any pair that names a
 * chapter the new file no longer has.
 */
import { eq } from 'drizzle-orm';
import type { AdminSyncMap, AudiobookChapter, ChapterPair, EbookChapter, SyncMapAnswer } from '@shared/schemas/sync-map';
import type { AppDeps } from '../../deps';
import { chapterPairings } from '../../db/schema';
import { type ActorId, audit } from '../../platform/operations/audit';
import { storedContents } from '../copies/service';
import { findAsset } from '../library/service';
import { chaptersOf } from './service';

type Index = { ebook: number; audiobook: number };

/** Titles compared without case, punctuation or accents: "Chapter One: The Return" = "chapter one - the return". */
const norm = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * Pairs two chapter lists by title first, then by order: chapters whose titles match are anchors (taken in
 * order, never crossing), and the chapters between two anchors are paired one by one in order, so an
 * audiobook's "Opening credits" goes with the e-book's title page and renamed chapters still line up.
 * Answers positions in the two lists.
 */
export function pairByTitleAndOrder(ebook: Array<{ title: string }>, audio: Array<{ title: string }>): Array<[number, number]> {
  const anchors: Array<[number, number]> = [];
  let from = 0;
  ebook.forEach((chapter, i) => {
    const title = norm(chapter.title);
    if (!title) return;
    for (let j = from; j < audio.length; j += 1) {
      if (norm(audio[j].title) === title) {
        anchors.push([i, j]);
        from = j + 1;
        return;
      }
    }
  });
  const pairs: Array<[number, number]> = [];
  let previous: [number, number] = [-1, -1];
  for (const anchor of [...anchors, [ebook.length, audio.length] as [number, number]]) {
    const gap = Math.min(anchor[0] - previous[0] - 1, anchor[1] - previous[1] - 1);
    for (let k = 1; k <= gap; k += 1) pairs.push([previous[0] + k, previous[1] + k]);
    if (anchor[0] < ebook.length) pairs.push(anchor);
    previous = anchor;
  }
  return pairs;
}

/** A stored e-book's contents, read once per version of the file (the archive is read whole). */
const contentsCache = new Map<string, Promise<EbookChapter[]>>();
const CONTENTS_KEPT = 32;

export async function ebookChapters(deps: Pick<AppDeps, 'database' | 'files'>, bookId: number): Promise<EbookChapter[] | null> {
  const asset = await findAsset(deps.database.db, { bookId, format: 'ebook' });
  if (!asset) return null;
  const tag = `${asset.id}:${asset.updatedAt.getTime()}:${asset.fileUrl}`;
  let found = contentsCache.get(tag);
  if (!found) {
    found = storedContents(deps.files, asset.fileUrl).catch(() => []);
    if (contentsCache.size >= CONTENTS_KEPT) contentsCache.delete(contentsCache.keys().next().value!);
    contentsCache.set(tag, found);
  }
  return found;
}

interface BothSides {
  ebook: EbookChapter[];
  audiobook: AudiobookChapter[];
}

/** Both chapter lists, or null unless the book has both files. */
async function bothSides(deps: AppDeps, bookId: number): Promise<BothSides | null> {
  const [ebook, audio] = await Promise.all([ebookChapters(deps, bookId), chaptersOf(deps, bookId)]);
  if (!ebook || !audio) return null;
  return { ebook, audiobook: audio.chapters.map((c, index) => ({ index, title: c.title, start: c.start, end: c.end })) };
}

async function storedCorrection(deps: AppDeps, bookId: number): Promise<Index[] | null> {
  const [row] = await deps.database.db.select().from(chapterPairings).where(eq(chapterPairings.bookId, bookId)).limit(1);
  return row ? row.pairs : null;
}

function resolvePairs(sides: BothSides, correction: Index[] | null): ChapterPair[] {
  if (!correction) {
    return pairByTitleAndOrder(sides.ebook, sides.audiobook).map(([i, j]) => ({ ebook: sides.ebook[i], audiobook: sides.audiobook[j] }));
  }
  const ebookAt = new Map(sides.ebook.map((c) => [c.index, c]));
  return correction
    .flatMap((p) => {
      const ebook = ebookAt.get(p.ebook);
      const audiobook = sides.audiobook[p.audiobook];
      return ebook && audiobook ? [{ ebook, audiobook }] : [];
    })
    .sort((a, b) => a.ebook.index - b.ebook.index);
}

/** The pairing of a book that has both files, or null when it lacks either. */
export async function syncMapOf(deps: AppDeps, bookId: number): Promise<SyncMapAnswer | null> {
  const sides = await bothSides(deps, bookId);
  if (!sides) return null;
  const correction = await storedCorrection(deps, bookId);
  return { bookId, corrected: correction !== null, pairs: resolvePairs(sides, correction) };
}

/** The same for the author, with both chapter lists to correct it from. */
export async function adminSyncMapOf(deps: AppDeps, bookId: number): Promise<AdminSyncMap | null> {
  const sides = await bothSides(deps, bookId);
  if (!sides) return null;
  const correction = await storedCorrection(deps, bookId);
  return {
    bookId,
    corrected: correction !== null,
    pairs: resolvePairs(sides, correction),
    ebookChapters: sides.ebook,
    audiobookChapters: sides.audiobook,
  };
}

export type CorrectionResult = { ok: true; map: AdminSyncMap } | { ok: false; reason: 'no-files' | 'unknown-chapter' };

/** Stores the author's pairing; every index must name a chapter the files have now. */
export async function correctSyncMap(deps: AppDeps, actorId: ActorId, bookId: number, pairs: Index[]): Promise<CorrectionResult> {
  const sides = await bothSides(deps, bookId);
  if (!sides) return { ok: false, reason: 'no-files' };
  const ebookIndexes = new Set(sides.ebook.map((c) => c.index));
  if (pairs.some((p) => !ebookIndexes.has(p.ebook) || p.audiobook >= sides.audiobook.length)) return { ok: false, reason: 'unknown-chapter' };
  const sorted = [...pairs].sort((a, b) => a.ebook - b.ebook);
  const now = deps.clock.now();
  await deps.database.db.transaction(async (tx) => {
    await tx
      .insert(chapterPairings)
      .values({ bookId, pairs: sorted, updatedAt: now })
      .onConflictDoUpdate({ target: chapterPairings.bookId, set: { pairs: sorted, updatedAt: now } });
    await audit(tx, actorId, { action: 'book.sync-map.correct', targetType: 'book', targetId: bookId, details: { pairs: sorted.length } }, now);
  });
  return { ok: true, map: (await adminSyncMapOf(deps, bookId))! };
}

/** Drops the author's correction: the pairing is made from the files again. */
export async function resetSyncMap(deps: AppDeps, actorId: ActorId, bookId: number): Promise<AdminSyncMap | null> {
  await deps.database.db.transaction(async (tx) => {
    const removed = await tx.delete(chapterPairings).where(eq(chapterPairings.bookId, bookId)).returning({ bookId: chapterPairings.bookId });
    if (removed.length) await audit(tx, actorId, { action: 'book.sync-map.reset', targetType: 'book', targetId: bookId }, deps.clock.now());
  });
  return adminSyncMapOf(deps, bookId);
}
