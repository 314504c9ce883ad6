/**
 * Read-through for the author (decision 0089): of the owners of a format who have not opted out, the share
 * who reached each chapter, from their stored positions only. Aggregated in the database; any chapter
 * fewer than READ_THROUGH_MIN_READERS readers reached is withheld, and so is a format with fewer owners,
 * so no single reader can be picked out.
 */
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { FINISHED_PROGRESS, READ_THROUGH_MIN_READERS, type ReadThrough, type ReadThroughFormat } from '@shared/schemas/read-through';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { books, purchases, readingPositions, users } from '../../db/schema';
import { OWNED_KINDS } from '../../db/purchase-kinds';
import { chaptersOf } from './service';
import { ebookChapters } from './sync-map';

/** The spine step of an e-book position's CFI ("epubcfi(/6/8!...)" is the fourth spine item). */
const SPINE_STEP = /^epubcfi\(\/6\/(\d+)/;

/**
 * A reader's copy has one page more than the master (its ex-libris page, after the cover or first), so
 * a position in the copy's section n is in the master's section n - 1 from there on.
 */
const masterSection = (locator: string): number | null => {
  const step = SPINE_STEP.exec(locator);
  return step ? Math.max(0, Number(step[1]) / 2 - 2) : null;
};

const countedOwners = (bookId: number, format: string) =>
  and(
    eq(purchases.bookId, bookId),
    eq(purchases.format, format),
    eq(purchases.status, 'completed'),
    inArray(purchases.kind, [...OWNED_KINDS]),
    eq(users.readThroughOptOut, false),
  );

/** Counted owners of a format, and the positions of those of them who have one. */
async function ownersAndPlaces(db: DbOrTx, bookId: number, format: string) {
  const [{ owners }] = await db
    .select({ owners: sql<number>`count(distinct ${purchases.userId})::int` })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(countedOwners(bookId, format));
  const places = await db
    .selectDistinct({ userId: readingPositions.userId, locator: readingPositions.locator })
    .from(readingPositions)
    .innerJoin(purchases, and(eq(purchases.userId, readingPositions.userId), eq(purchases.bookId, readingPositions.bookId), eq(purchases.format, readingPositions.format)))
    .innerJoin(users, eq(users.id, readingPositions.userId))
    .where(and(eq(readingPositions.bookId, bookId), eq(readingPositions.format, format), countedOwners(bookId, format)));
  return { owners, locators: places.map((p) => p.locator) };
}

/** The next book of this book's series in the catalogue (series number one higher), if there is one. */
async function nextBookOf(db: DbOrTx, bookId: number): Promise<{ id: number; title: string } | null> {
  const [book] = await db.select({ series: books.series, number: books.seriesNumber }).from(books).where(eq(books.id, bookId));
  if (!book?.series || book.number === null) return null;
  const [next] = await db
    .select({ id: books.id, title: books.title })
    .from(books)
    .where(and(eq(books.series, book.series), eq(books.seriesNumber, book.number + 1)))
    .limit(1);
  return next ?? null;
}

const DAY_MS = 86_400_000;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Counted owners whose saved place is at the end of the format: how many, the median days from their
 * first owning purchase to that place, and how many of them own the next book. Each figure is withheld
 * under the minimum, like the chapters.
 */
async function finishing(db: DbOrTx, bookId: number, format: string, nextBook: { id: number } | null) {
  const rows = await db
    .select({
      userId: readingPositions.userId,
      finishedAt: readingPositions.updatedAt,
      ownedSince: sql<string | Date>`min(${purchases.purchaseDate})`,
    })
    .from(readingPositions)
    .innerJoin(purchases, and(eq(purchases.userId, readingPositions.userId), eq(purchases.bookId, readingPositions.bookId), eq(purchases.format, readingPositions.format)))
    .innerJoin(users, eq(users.id, readingPositions.userId))
    .where(and(eq(readingPositions.bookId, bookId), eq(readingPositions.format, format), gte(readingPositions.progress, FINISHED_PROGRESS), countedOwners(bookId, format)))
    .groupBy(readingPositions.userId, readingPositions.updatedAt);
  if (rows.length < READ_THROUGH_MIN_READERS) return { finishers: null, medianDaysToFinish: null, finishersWhoBoughtNext: null };
  const days = rows.map((r) => Math.max(0, (r.finishedAt.getTime() - new Date(r.ownedSince).getTime()) / DAY_MS));
  let boughtNext: number | null = null;
  if (nextBook) {
    const [{ n }] = await db
      .select({ n: sql<number>`count(distinct ${purchases.userId})::int` })
      .from(purchases)
      .where(
        and(
          eq(purchases.bookId, nextBook.id),
          inArray(purchases.status, ['completed', 'shipped']),
          inArray(purchases.kind, [...OWNED_KINDS]),
          inArray(purchases.userId, rows.map((r) => r.userId)),
        ),
      );
    boughtNext = n >= READ_THROUGH_MIN_READERS ? n : null;
  }
  return { finishers: rows.length, medianDaysToFinish: Math.round(median(days) * 10) / 10, finishersWhoBoughtNext: boughtNext };
}

/** Chapter k is reached by everyone whose place is in chapter k or later: a count per chapter. */
function chart(owners: number, titles: string[], reachedIndex: number[]): ReadThroughFormat['chapters'] {
  return titles.map((title, k) => {
    const count = reachedIndex.filter((i) => i >= k).length;
    const hidden = count < READ_THROUGH_MIN_READERS;
    return { title, reached: hidden ? null : count / owners, hidden };
  });
}

const tooFew = (format: ReadThroughFormat['format'], titles: string[]): ReadThroughFormat => ({
  format,
  owners: null,
  chapters: titles.map((title) => ({ title, reached: null, hidden: true })),
  finishers: null,
  medianDaysToFinish: null,
  finishersWhoBoughtNext: null,
});

export async function readThroughOf(deps: AppDeps, bookId: number): Promise<ReadThrough> {
  const { db } = deps.database;
  const formats: ReadThroughFormat[] = [];
  const nextBook = await nextBookOf(db, bookId);

  const ebook = await ebookChapters(deps, bookId);
  if (ebook && ebook.length) {
    const { owners, locators } = await ownersAndPlaces(db, bookId, 'ebook');
    const titles = ebook.map((c) => c.title);
    if (owners < READ_THROUGH_MIN_READERS) formats.push(tooFew('ebook', titles));
    else {
      // The chapter a place is in: the last chapter starting at or before its section.
      const reached = locators.flatMap((locator) => {
        const section = masterSection(locator);
        if (section === null) return [];
        const k = ebook.findLastIndex((c) => c.index <= section);
        return k < 0 ? [] : [k];
      });
      formats.push({ format: 'ebook', owners, chapters: chart(owners, titles, reached), ...(await finishing(db, bookId, 'ebook', nextBook)) });
    }
  }

  const audio = await chaptersOf(deps, bookId);
  if (audio && audio.chapters.length) {
    const { owners, locators } = await ownersAndPlaces(db, bookId, 'audiobook');
    const titles = audio.chapters.map((c) => c.title);
    if (owners < READ_THROUGH_MIN_READERS) formats.push(tooFew('audiobook', titles));
    else {
      const reached = locators.flatMap((locator) => {
        const seconds = Number(locator);
        if (!Number.isFinite(seconds)) return [];
        const k = audio.chapters.findLastIndex((c) => c.start <= seconds + 0.25);
        return k < 0 ? [] : [k];
      });
      formats.push({ format: 'audiobook', owners, chapters: chart(owners, titles, reached), ...(await finishing(db, bookId, 'audiobook', nextBook)) });
    }
  }
  return { bookId, minimumReaders: READ_THROUGH_MIN_READERS, nextBook, formats };
}

/** Whether the reader is counted (they have not opted out). */
export async function readThroughConsent(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db.select({ optOut: users.readThroughOptOut }).from(users).where(eq(users.id, userId)).limit(1);
  return !row?.optOut;
}

export async function setReadThroughConsent(db: DbOrTx, userId: number, counted: boolean): Promise<boolean> {
  await db.update(users).set({ readThroughOptOut: !counted }).where(eq(users.id, userId));
  return counted;
}
