import { and, eq, sql } from 'drizzle-orm';
import { parseStream } from 'music-metadata';
import type { Chapter, ChaptersAnswer, Position, ProgressSummary } from '@shared/schemas/reading';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { assetChapters, books, readingPositions } from '../../db/schema';
import { getFeaturedBook } from '../books/service';
import { readStoredZip } from '../../platform/storage/zip';
import { findAsset } from '../library/service';
import { cutSampleEpub } from './sample-epub';
import { storedSpine } from '../copies/service';

type PositionRow = typeof readingPositions.$inferSelect;

const toPosition = (row: Pick<PositionRow, 'locator' | 'progress' | 'updatedAt'>): Position => ({
  locator: row.locator,
  progress: row.progress,
  updatedAt: row.updatedAt.toISOString(),
});

export async function getPosition(db: DbOrTx, userId: number, bookId: number, format: string): Promise<Position | null> {
  const [row] = await db
    .select()
    .from(readingPositions)
    .where(and(eq(readingPositions.userId, userId), eq(readingPositions.bookId, bookId), eq(readingPositions.format, format)))
    .limit(1);
  return row ? toPosition(row) : null;
}

/** Every position the reader has, for the library's "Read 37%" / "Listened 1 h 12 min" lines. */
export async function listPositions(db: DbOrTx, userId: number): Promise<ProgressSummary[]> {
  const rows = await db.select().from(readingPositions).where(eq(readingPositions.userId, userId));
  return rows.map((r) => ({ bookId: r.bookId, format: r.format as ProgressSummary['format'], ...toPosition(r) }));
}

/**
 * Saves a position unless a newer one is stored, in ONE statement: the upsert only overwrites a row whose
 * updated_at is not later than the incoming one, so two devices racing can never move each other back.
 * Returns the saved position, or `{ stale }` with the newer stored one.
 */
export async function savePosition(
  db: DbOrTx,
  input: { userId: number; bookId: number; format: string; position: Position },
): Promise<{ saved: Position } | { stale: Position }> {
  const { userId, bookId, format, position } = input;
  const values = {
    userId,
    bookId,
    format,
    locator: position.locator,
    progress: position.progress,
    updatedAt: new Date(position.updatedAt),
  };
  const [row] = await db
    .insert(readingPositions)
    .values(values)
    .onConflictDoUpdate({
      target: [readingPositions.userId, readingPositions.bookId, readingPositions.format],
      set: { locator: values.locator, progress: values.progress, updatedAt: values.updatedAt },
      setWhere: sql`${readingPositions.updatedAt} <= excluded.updated_at`,
    })
    .returning();
  if (row) return { saved: toPosition(row) };
  const current = await getPosition(db, userId, bookId, format);
  // The only way to get here is a newer stored row; it cannot have vanished in between except by deletion.
  return current ? { stale: current } : savePosition(db, input);
}

type AssetRow = NonNullable<Awaited<ReturnType<typeof findAsset>>>;

async function parseChapters(deps: AppDeps, asset: AssetRow): Promise<{ chapters: Chapter[]; duration: number | null }> {
  const stored = await deps.files.stat(asset.fileUrl);
  if (!stored) return { chapters: [], duration: null };
  const stream = await deps.files.read(asset.fileUrl);
  try {
    const meta = await parseStream(stream, { mimeType: asset.contentType, size: stored.size }, {
      includeChapters: true,
      duration: false,
      skipCovers: true,
    });
    const duration = meta.format.duration ?? null;
    const chapters = (meta.format.chapters ?? [])
      .map((c) => ({
        title: c.title.trim() || 'Untitled chapter',
        // ID3 chapter times come in seconds; MP4 ones as a sample offset over the sample rate.
        start: c.sampleOffset !== undefined && meta.format.sampleRate ? c.sampleOffset / meta.format.sampleRate : c.start,
        end: c.end ?? null,
      }))
      .filter((c) => Number.isFinite(c.start) && c.start >= 0)
      .sort((a, b) => a.start - b.start);
    return { chapters, duration };
  } catch {
    // Tags the parser cannot read are no chapter marks; the file still plays.
    return { chapters: [], duration: null };
  } finally {
    stream.destroy();
  }
}

/**
 * The chapter marks of a book's audiobook, read from the stored file's own tags (ID3 CHAP/CTOC, MP4
 * chapters) once per version of the file and kept: the admin upload reads them at once, and a file
 * stored before (or by another path) is read on first use. A file without marks is one chapter named
 * after the book. Null when the book has no audiobook file.
 */
export async function chaptersOf(deps: AppDeps, bookId: number): Promise<ChaptersAnswer | null> {
  const { db } = deps.database;
  const asset = await findAsset(db, { bookId, format: 'audiobook' });
  if (!asset) return null;
  const tag = `${asset.id}:${asset.updatedAt.getTime()}:${asset.fileUrl}`;
  const [stored] = await db.select().from(assetChapters).where(eq(assetChapters.assetId, asset.id)).limit(1);
  let found = stored && stored.fileTag === tag ? { chapters: stored.chapters, duration: stored.duration } : null;
  if (!found) {
    found = await parseChapters(deps, asset);
    await db
      .insert(assetChapters)
      .values({ assetId: asset.id, fileTag: tag, chapters: found.chapters, duration: found.duration })
      .onConflictDoUpdate({
        target: assetChapters.assetId,
        set: { fileTag: tag, chapters: found.chapters, duration: found.duration },
      });
  }
  const chapters = found.chapters.length ? found.chapters : [{ title: await bookTitle(db, bookId), start: 0, end: found.duration }];
  return { chapters, duration: found.duration };
}

export async function bookTitle(db: DbOrTx, bookId: number): Promise<string> {
  const [row] = await db.select({ title: books.title }).from(books).where(eq(books.id, bookId)).limit(1);
  return row?.title ?? 'Audiobook';
}

/**
 * The free sample of the featured book, cut by the server from the stored ebook (never from anyone's
 * personalised copy); kept in the public-data cache per version of the file. Null when there is no ebook.
 */
export async function sampleEpub(deps: AppDeps): Promise<Buffer | null> {
  const { db } = deps.database;
  const featured = await getFeaturedBook(db);
  const asset = featured ? await findAsset(db, { bookId: featured.id, format: 'ebook' }) : null;
  if (!asset || !(await deps.files.stat(asset.fileUrl))) return null;
  // A stored book that is a zip bomb (or unreadable) is refused once and remembered, not cut on every request.
  return deps.cache.get(`reading:sample:${asset.id}:${asset.updatedAt.getTime()}`, async () =>
    cutSampleEpub(await readStoredZip(deps.files, asset.fileUrl), new URL('/#purchase', deps.config.publicUrl).toString()),
  );
}

/** The spine step of an EPUB CFI ("epubcfi(/6/4[c2]!/4/2)"): which chapter, and the id it asserts. */
const SPINE_STEP = /^epubcfi\(\/6\/(\d+)(\[[^\]]*\])?!/;

/**
 * A replaced e-book master keeps every reader's place whose chapter is still in the book: a position
 * names its chapter by its place in the spine, so it is moved to where that chapter (the same file in the
 * archive) now stands. Positions in a chapter the new master no longer has are dropped, so the reader
 * opens at the start rather than in the wrong chapter. Answers how many were kept and dropped.
 */
export async function carryPositionsToNewMaster(
  deps: Pick<AppDeps, 'database' | 'files'>,
  bookId: number,
  previousKey: string,
  newKey: string,
): Promise<{ kept: number; dropped: number }> {
  const { db } = deps.database;
  const [before, after] = await Promise.all([storedSpine(deps.files, previousKey), storedSpine(deps.files, newKey)]);
  const placeOf = new Map(after.map((chapter, index) => [chapter.path, index]));
  const here = and(eq(readingPositions.bookId, bookId), eq(readingPositions.format, 'ebook'));
  const rows = await db.select().from(readingPositions).where(here);
  let kept = 0;
  let dropped = 0;
  for (const row of rows) {
    const step = SPINE_STEP.exec(row.locator);
    if (!step) continue;
    const chapter = before[Number(step[1]) / 2 - 1];
    const index = chapter ? placeOf.get(chapter.path) : undefined;
    const who = and(here, eq(readingPositions.userId, row.userId));
    if (index === undefined) {
      await db.delete(readingPositions).where(who);
      dropped += 1;
      continue;
    }
    const spineStep = `epubcfi(/6/${(index + 1) * 2}${step[2] ? `[${after[index].id}]` : ''}!`;
    const locator = spineStep + row.locator.slice(step[0].length);
    if (locator !== row.locator) await db.update(readingPositions).set({ locator }).where(who);
    kept += 1;
  }
  return { kept, dropped };
}
