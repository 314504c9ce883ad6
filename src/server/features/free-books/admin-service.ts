/**
 * Admin "Free book" (decision 0097): the author's gifts to new subscribers, and what each brought in: the
 * requests per `?source=`, the addresses that confirmed, and how many of those readers paid for a book later.
 */
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type DigitalFormat, formatLabel } from '@shared/constants';
import { type AdminFreeBook, FREE_BOOK_MESSAGES, type freeBookInputSchema } from '@shared/schemas/free-books';
import type { Db, DbOrTx } from '../../db/client';
import { books, freeBookClaims, freeBooks, purchases } from '../../db/schema';
import { type ActorId, audit } from '../../platform/operations/audit';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { badRequest, conflict, notFound } from '../../platform/http/errors';

type FreeBookBody = z.output<typeof freeBookInputSchema>;
type Figures = AdminFreeBook['totals'];

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];

/**
 * The figures of every free book, per source and in total. An address is counted once per source (and once in
 * the total) however many times it asked or confirmed; "bought later" is a paid order of any book, not
 * refunded, dated after the reader's first confirmation.
 */
async function figures(db: DbOrTx): Promise<Map<number, { totals: Figures; sources: AdminFreeBook['sources'] }>> {
  const rows = rowsOf<{ free_book_id: number; source: string | null; total: boolean; requested: number; claimed: number; bought_later: number }>(
    await db.execute(sql`
      with claims as (
        select c.free_book_id, c.source, lower(c.email) as address, c.confirmed_at, c.user_id,
               min(c.confirmed_at) over (partition by c.free_book_id, lower(c.email)) as first_confirmed
          from ${freeBookClaims} c
      )
      select free_book_id, source, grouping(source) = 1 as total,
             count(*)::int as requested,
             count(distinct address) filter (where confirmed_at is not null)::int as claimed,
             count(distinct address) filter (where confirmed_at is not null and exists (
               select 1 from ${purchases} p
                where p.user_id = claims.user_id and p.kind in ('paid', 'gift') and p.status in ('completed', 'shipped')
                  and p.purchase_date > claims.first_confirmed))::int as bought_later
        from claims
       group by grouping sets ((free_book_id, source), (free_book_id))`),
  );
  const byBook = new Map<number, { totals: Figures; sources: AdminFreeBook['sources'] }>();
  const empty = (): Figures => ({ requested: 0, claimed: 0, boughtLater: 0 });
  for (const r of rows) {
    const id = Number(r.free_book_id);
    const entry = byBook.get(id) ?? { totals: empty(), sources: [] };
    const counts = { requested: Number(r.requested), claimed: Number(r.claimed), boughtLater: Number(r.bought_later) };
    if (r.total) entry.totals = counts;
    else entry.sources.push({ source: r.source, ...counts });
    byBook.set(id, entry);
  }
  for (const entry of byBook.values()) {
    entry.sources.sort((a, b) => b.claimed - a.claimed || b.requested - a.requested || (a.source ?? '').localeCompare(b.source ?? ''));
  }
  return byBook;
}

const columns = {
  id: freeBooks.id,
  bookId: freeBooks.bookId,
  bookTitle: books.title,
  format: freeBooks.format,
  slug: freeBooks.slug,
  pitch: freeBooks.pitch,
  active: freeBooks.active,
  createdAt: freeBooks.createdAt,
  updatedAt: freeBooks.updatedAt,
};

type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] };

function toAdmin(row: Row, stats: Map<number, { totals: Figures; sources: AdminFreeBook['sources'] }>): AdminFreeBook {
  const format = row.format as DigitalFormat;
  const s = stats.get(row.id);
  return {
    ...row,
    format,
    formatLabel: formatLabel(format),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    totals: s?.totals ?? { requested: 0, claimed: 0, boughtLater: 0 },
    sources: s?.sources ?? [],
  };
}

/** Every free book, newest first, with its figures. */
export async function listAdminFreeBooks(db: DbOrTx): Promise<AdminFreeBook[]> {
  const [rows, stats] = await Promise.all([
    db.select(columns).from(freeBooks).innerJoin(books, eq(books.id, freeBooks.bookId)).orderBy(desc(freeBooks.createdAt), asc(freeBooks.id)),
    figures(db),
  ]);
  return rows.map((r) => toAdmin(r, stats));
}

async function findAdminFreeBook(db: DbOrTx, id: number): Promise<AdminFreeBook> {
  const [row] = await db.select(columns).from(freeBooks).innerJoin(books, eq(books.id, freeBooks.bookId)).where(eq(freeBooks.id, id));
  if (!row) throw notFound(FREE_BOOK_MESSAGES.notFound);
  return toAdmin(row, await figures(db));
}

async function checkBook(db: DbOrTx, bookId: number) {
  const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, bookId));
  if (!book) throw badRequest(FREE_BOOK_MESSAGES.bookNotFound, { bookId: FREE_BOOK_MESSAGES.bookNotFound });
}

/** A taken address is the author's to fix, not a server error. */
async function mapSlugTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === 'free_books_slug_uq') throw conflict(FREE_BOOK_MESSAGES.slugTaken, { slug: FREE_BOOK_MESSAGES.slugTaken });
    throw error;
  }
}

export async function createFreeBook(db: Db, body: FreeBookBody, actor: ActorId, now: Date): Promise<AdminFreeBook> {
  await checkBook(db, body.bookId);
  const id = await mapSlugTaken(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(freeBooks)
        .values({ ...body, createdAt: now, updatedAt: now })
        .returning({ id: freeBooks.id });
      await audit(tx, actor, { action: 'free-book.create', targetType: 'free-book', targetId: row.id, details: { slug: body.slug, bookId: body.bookId, format: body.format } }, now);
      return row.id;
    }),
  );
  return findAdminFreeBook(db, id);
}

export async function updateFreeBook(db: Db, id: number, body: FreeBookBody, actor: ActorId, now: Date): Promise<AdminFreeBook> {
  await checkBook(db, body.bookId);
  await mapSlugTaken(() =>
    db.transaction(async (tx) => {
      const changed = await tx.update(freeBooks).set({ ...body, updatedAt: now }).where(eq(freeBooks.id, id)).returning({ id: freeBooks.id });
      if (changed.length === 0) throw notFound(FREE_BOOK_MESSAGES.notFound);
      await audit(tx, actor, { action: 'free-book.update', targetType: 'free-book', targetId: id, details: { slug: body.slug, active: body.active } }, now);
    }),
  );
  return findAdminFreeBook(db, id);
}

/** Removes the offer and its requests; the books already claimed stay in their readers' libraries. */
export async function deleteFreeBook(db: Db, id: number, actor: ActorId, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await tx.delete(freeBooks).where(eq(freeBooks.id, id)).returning({ slug: freeBooks.slug });
    if (gone.length === 0) throw notFound(FREE_BOOK_MESSAGES.notFound);
    await audit(tx, actor, { action: 'free-book.delete', targetType: 'free-book', targetId: id, details: { slug: gone[0].slug } }, now);
  });
}
