import type { AppDeps } from '../../deps';
import { and, count, eq, inArray } from 'drizzle-orm';
import { CURRENCY, DIGITAL_FORMATS, PURCHASE_FORMATS, formatLabel, formatPrice } from '@shared/constants';
import {
  type MissingFile,
  type PreOrderArea,
  type PreOrderSettings,
  type PreOrderSettingsAnswer,
  availableOnMessage,
} from '@shared/schemas/pre-orders';
import type { DbOrTx } from '../../db/client';
import { bookPrices, books, purchases } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';
import { getUpcomingBook, listPrices } from '../books/service';
import { getSetting } from '../../platform/operations/settings';
import { announceUploadedFiles, formatsWithFiles, scheduleRelease } from './release';

// What other features may use of this one.
export { announceUploadedFiles };

export interface SaleState {
  /** The featured book, or a book the admin put on pre-order (it has a release date). */
  onSale: boolean;
  /** On sale before its release: digital files may not be uploaded yet and downloads wait. */
  preOrder: boolean;
  releaseAt: Date | null;
}

export async function saleState(db: DbOrTx, bookId: number, now: Date): Promise<SaleState> {
  const [row] = await db.select({ featured: books.featured, releaseAt: books.releaseAt }).from(books).where(eq(books.id, bookId));
  if (!row) return { onSale: false, preOrder: false, releaseAt: null };
  const preOrder = row.releaseAt !== null && row.releaseAt > now;
  return { onSale: row.featured || row.releaseAt !== null, preOrder, releaseAt: row.releaseAt };
}

/** Release dates still ahead, by book id: what keeps a bought format from being downloaded. */
export async function pendingReleases(db: DbOrTx, bookIds: number[], now: Date): Promise<Map<number, Date>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db
    .select({ id: books.id, releaseAt: books.releaseAt })
    .from(books)
    .where(inArray(books.id, [...new Set(bookIds)]));
  const pending = new Map<number, Date>();
  for (const row of rows) {
    const state = releaseStateOf(row.releaseAt, now);
    if (!state.released) pending.set(row.id, state.availableAt);
  }
  return pending;
}

export type ReleaseState = { released: true } | { released: false; availableAt: Date };

/**
 * THE release rule (issue 27 point 2): whether a book's files may leave the library yet, from its release
 * date. Every way out (asset lookup, download link, the signed file route, reading content, positions, Send
 * to Kindle, gift claim, and any later feed) asks this rule, through releaseState or with the date it read
 * itself, so no path can open a pre-order early.
 */
export function releaseStateOf(releaseAt: Date | null, now: Date): ReleaseState {
  return releaseAt && releaseAt > now ? { released: false, availableAt: releaseAt } : { released: true };
}

/** The release rule for a book, read from the database. */
export async function releaseState(db: DbOrTx, bookId: number, now: Date): Promise<ReleaseState> {
  const pending = (await pendingReleases(db, [bookId], now)).get(bookId);
  return pending ? { released: false, availableAt: pending } : { released: true };
}

/** The release rule as a refusal: 403 "Available on {date}" for a book not out yet. */
export async function assertReleased(db: DbOrTx, bookId: number, now: Date): Promise<void> {
  const state = await releaseState(db, bookId, now);
  if (!state.released) throw new AppError('NOT_RELEASED', 403, availableOnMessage(state.availableAt));
}

/** The upcoming book's purchase area on the home page, when the admin has put it on pre-order. */
export async function getPreOrderArea(db: DbOrTx, now: Date): Promise<PreOrderArea | null> {
  const book = await getUpcomingBook(db);
  if (!book) return null;
  const [row] = await db.select({ releaseAt: books.releaseAt }).from(books).where(eq(books.id, book.id));
  if (!row?.releaseAt) return null;
  const [prices, content] = await Promise.all([listPrices(db, book.id), getSetting(db, 'site.formats')]);
  const formats = PURCHASE_FORMATS.flatMap((id) => {
    const price = prices.find((p) => p.format === id);
    if (!price) return [];
    const title = content?.find((c) => c.id === id)?.title ?? formatLabel(id);
    return [{ id, title, price: price.price, displayPrice: formatPrice(price.price) }];
  });
  if (formats.length === 0) return null;
  return {
    book: { id: book.id, title: book.title },
    releaseAt: row.releaseAt.toISOString(),
    released: row.releaseAt <= now,
    formats,
  };
}

export async function getPreOrderSettings(db: DbOrTx, bookId: number): Promise<PreOrderSettings | null> {
  const [row] = await db.select({ releaseAt: books.releaseAt }).from(books).where(eq(books.id, bookId));
  if (!row) return null;
  const prices = await listPrices(db, bookId);
  return {
    releaseAt: row.releaseAt?.toISOString() ?? null,
    prices: Object.fromEntries(PURCHASE_FORMATS.map((f) => [f, prices.find((p) => p.format === f)?.price ?? null])) as PreOrderSettings['prices'],
  };
}

/**
 * The digital formats a reader can pre-order. The PDF edition is not one of them: it comes with the e-book
 * and appears in the library only once its file is there (decision 0066), so a missing PDF is no broken
 * promise to warn the author about or to write to buyers about.
 */
const PREORDERABLE_DIGITAL_FORMATS = DIGITAL_FORMATS.filter((f) => (PURCHASE_FORMATS as readonly string[]).includes(f));

/**
 * Every pre-ordered digital format of the book without a file: on sale at a price, or already bought.
 * The release form lists them; at the release their buyers are told the file is not ready yet.
 */
export async function missingFiles(db: DbOrTx, bookId: number): Promise<MissingFile[]> {
  const [prices, filed, bought] = await Promise.all([
    listPrices(db, bookId),
    formatsWithFiles(db, bookId),
    db
      .select({ format: purchases.format, orders: count() })
      .from(purchases)
      .where(and(eq(purchases.bookId, bookId), inArray(purchases.kind, ['paid', 'included', 'gift', 'gift_claim']), inArray(purchases.status, ['completed', 'shipped'])))
      .groupBy(purchases.format),
  ]);
  const orders = new Map(bought.map((b) => [b.format, Number(b.orders)]));
  return PREORDERABLE_DIGITAL_FORMATS.filter((f) => !filed.has(f) && (prices.some((p) => p.format === f) || orders.has(f))).map((format) => ({
    format,
    label: formatLabel(format),
    orders: orders.get(format) ?? 0,
  }));
}

/** The release form's answer: the settings and the formats still waiting for their file. */
export async function preOrderSettingsAnswer(db: DbOrTx, bookId: number): Promise<PreOrderSettingsAnswer | null> {
  const settings = await getPreOrderSettings(db, bookId);
  return settings && { ...settings, missingFiles: await missingFiles(db, bookId) };
}

/** Writes the release date and the price table of a book (a null price takes the format off sale). */
async function writePreOrderSettings(tx: DbOrTx, bookId: number, input: PreOrderSettings, now: Date) {
  await tx
    .update(books)
    .set({ releaseAt: input.releaseAt ? new Date(input.releaseAt) : null, updatedAt: now })
    .where(eq(books.id, bookId));
  for (const format of PURCHASE_FORMATS) {
    const price = input.prices[format];
    if (price === null) {
      await tx.delete(bookPrices).where(and(eq(bookPrices.bookId, bookId), eq(bookPrices.format, format)));
    } else {
      await tx
        .insert(bookPrices)
        .values({ bookId, format, price })
        .onConflictDoUpdate({ target: [bookPrices.bookId, bookPrices.format], set: { price } });
    }
  }
}

/**
 * The upcoming book's schema.org Book while it is sold ahead of (or after) its release: its offers say
 * PreOrder with availabilityStarts until the release moment, then InStock. The page holding it is cached;
 * the release job clears the cache at that moment.
 */
export async function preOrderJsonLd(deps: AppDeps): Promise<object[]> {
  const area = await getPreOrderArea(deps.database.db, deps.clock.now());
  if (!area) return [];
  const { publicUrl } = deps.config;
  const url = new URL('/#upcoming', publicUrl).toString();
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Book',
      '@id': `${url}-book`,
      name: area.book.title,
      url,
      offers: area.formats.map((f) => ({
        '@type': 'Offer',
        name: f.title,
        price: (f.price / 100).toFixed(2),
        priceCurrency: CURRENCY,
        availability: area.released ? 'https://schema.org/InStock' : 'https://schema.org/PreOrder',
        ...(area.released ? {} : { availabilityStarts: area.releaseAt }),
        url,
        itemCondition: 'https://schema.org/NewCondition',
        description: `${f.title}, ${formatPrice(f.price)}`,
      })),
    },
  ];
}

/** The admin's release date and prices for a book, with the release job moved to the new date. */
export async function savePreOrderSettings(
  deps: AppDeps,
  bookId: number,
  input: PreOrderSettings,
  actorId: ActorId,
  now: Date,
): Promise<PreOrderSettingsAnswer> {
  const { db } = deps.database;
  await db.transaction(async (tx) => {
    if (!(await getPreOrderSettings(tx, bookId))) throw notFound('Book not found');
    await writePreOrderSettings(tx, bookId, input, now);
    await scheduleRelease(deps, tx, bookId, input.releaseAt ? new Date(input.releaseAt) : null);
    await audit(tx, actorId, { action: 'book.pre-order', targetType: 'book', targetId: bookId, details: { ...input } }, now);
  });
  return (await preOrderSettingsAnswer(db, bookId))!;
}
