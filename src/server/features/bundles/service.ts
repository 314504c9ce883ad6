/**
 * Bundles (issue 26 point 2, decision 0083): formats of one or more books at one price, and what a reader
 * who owns part of one pays for the rest ("Complete your set").
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type PurchaseFormat, formatLabel, formatPrice, isDigitalFormat } from '@shared/constants';
import { BUNDLE_MESSAGES, type AdminBundle, type Bundle, type bundleInputSchema } from '@shared/schemas/bundles';
import { MIN_CHARGE } from '@shared/schemas/discounts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { bookPrices, books, bundleItems, bundles, purchases } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';
import { OWNED_KINDS } from '../../db/purchase-kinds';

type BundleBody = z.output<typeof bundleInputSchema>;
type BundleRow = typeof bundles.$inferSelect;

interface Part {
  bookId: number;
  title: string;
  format: PurchaseFormat;
  formatLabel: string;
  listPrice: number | null;
  owned: boolean;
  /** What the reader paid for the part they own (less anything refunded of it); 0 when not owned. */
  paid: number;
}

/** The parts of these bundles, in their order, with their own prices now and, for a reader, what they own. */
async function partsOf(db: DbOrTx, ids: number[], userId: number | null): Promise<Map<number, Part[]>> {
  const parts = new Map<number, Part[]>();
  if (ids.length === 0) return parts;
  const rows = await db
    .select({ bundleId: bundleItems.bundleId, bookId: bundleItems.bookId, format: bundleItems.format, title: books.title, listPrice: bookPrices.price })
    .from(bundleItems)
    .innerJoin(books, eq(books.id, bundleItems.bookId))
    .leftJoin(bookPrices, and(eq(bookPrices.bookId, bundleItems.bookId), eq(bookPrices.format, bundleItems.format)))
    .where(inArray(bundleItems.bundleId, ids))
    .orderBy(asc(bundleItems.bundleId), asc(bundleItems.position));
  for (const r of rows) {
    const format = r.format as PurchaseFormat;
    let owned = false;
    let paid = 0;
    // Only a digital format is owned for good; a print copy can always be bought again.
    if (userId !== null && isDigitalFormat(format)) {
      const [own] = await db
        .select({
          n: sql<number>`count(*)`.mapWith(Number),
          // What was paid for the format on its own account (an included or claimed copy cost nothing).
          paid: sql<number>`coalesce(sum(case when ${purchases.kind} = 'paid' then ${purchases.price} - ${purchases.refundedAmount} else 0 end), 0)`.mapWith(Number),
        })
        .from(purchases)
        // The library's rule of ownership: a completed row of an owned kind.
        .where(
          and(
            eq(purchases.userId, userId),
            eq(purchases.bookId, r.bookId),
            eq(purchases.format, format),
            eq(purchases.status, 'completed'),
            inArray(purchases.kind, [...OWNED_KINDS]),
          ),
        );
      owned = own.n > 0;
      paid = owned ? own.paid : 0;
    }
    const list = parts.get(r.bundleId) ?? [];
    list.push({ bookId: r.bookId, title: r.title, format, formatLabel: formatLabel(format), listPrice: r.listPrice ?? null, owned, paid });
    parts.set(r.bundleId, list);
  }
  return parts;
}

/**
 * The bundle's price for this reader: less what they paid for the parts they own, never below the
 * minimum charge nor above the bundle's price.
 */
export function priceForReader(price: number, parts: Part[]): number {
  const paid = parts.reduce((sum, p) => sum + (p.owned ? p.paid : 0), 0);
  return Math.min(price, Math.max(MIN_CHARGE, price - paid));
}

/**
 * The library's offer (decision 0095): the formats the reader lacks, when they own another part of the
 * bundle and its price for them is less than those formats cost on their own ("Add the audiobook for £x").
 */
function addOffer(parts: Part[], yourPrice: number): string | null {
  const missing = parts.filter((p) => !p.owned);
  if (missing.length === 0 || missing.length === parts.length) return null;
  if (missing.some((p) => p.listPrice === null)) return null;
  const alone = missing.reduce((sum, p) => sum + p.listPrice!, 0);
  if (yourPrice >= alone) return null;
  const names = missing.map((p) => `the ${p.formatLabel.toLowerCase()}`);
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Add ${listed} for ${formatPrice(yourPrice)}`;
}

const publicPart = ({ paid: _paid, ...part }: Part) => part;

function toBundle(row: BundleRow, parts: Part[]): Bundle {
  const yourPrice = priceForReader(row.price, parts);
  const ownedWhole = parts.length > 0 && parts.every((p) => p.owned);
  const ownsPart = parts.some((p) => p.owned);
  return {
    id: row.id,
    name: row.name,
    price: row.price,
    displayPrice: formatPrice(row.price),
    items: parts.map(publicPart),
    yourPrice,
    displayYourPrice: formatPrice(yourPrice),
    completeYourSet: ownsPart && !ownedWhole ? `Complete your set: ${formatPrice(yourPrice)}` : null,
    ownedWhole,
    addOffer: addOffer(parts, yourPrice),
  };
}

/** GET /api/bundles: the active bundles, priced for the caller (a visitor owns nothing). */
export async function listBundles(db: DbOrTx, userId: number | null): Promise<Bundle[]> {
  const rows = await db.select().from(bundles).where(eq(bundles.active, true)).orderBy(asc(bundles.id));
  const parts = await partsOf(db, rows.map((r) => r.id), userId);
  // A bundle whose books were all deleted holds nothing to sell.
  return rows.filter((r) => (parts.get(r.id) ?? []).length > 0).map((r) => toBundle(r, parts.get(r.id)!));
}

/** One bundle priced for a reader, active or not (the basket names an inactive one). */
export async function bundleForReader(db: DbOrTx, id: number, userId: number | null): Promise<(Bundle & { active: boolean }) | null> {
  const [row] = await db.select().from(bundles).where(eq(bundles.id, id));
  if (!row) return null;
  const parts = await partsOf(db, [row.id], userId);
  return { ...toBundle(row, parts.get(row.id) ?? []), active: row.active };
}

function toAdmin(row: BundleRow, parts: Part[]): AdminBundle {
  return {
    id: row.id,
    name: row.name,
    price: row.price,
    displayPrice: formatPrice(row.price),
    active: row.active,
    items: parts.map(publicPart),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listAdminBundles(db: DbOrTx): Promise<AdminBundle[]> {
  const rows = await db.select().from(bundles).orderBy(asc(bundles.id));
  const parts = await partsOf(db, rows.map((r) => r.id), null);
  return rows.map((r) => toAdmin(r, parts.get(r.id) ?? []));
}

async function adminBundle(db: DbOrTx, id: number): Promise<AdminBundle> {
  const [row] = await db.select().from(bundles).where(eq(bundles.id, id));
  return toAdmin(row, (await partsOf(db, [id], null)).get(id) ?? []);
}

/** Every book named must exist; the first one that does not is named in the refusal. */
async function refuseUnknownBooks(db: DbOrTx, body: BundleBody) {
  const ids = [...new Set(body.items.map((i) => i.bookId))];
  const found = await db.select({ id: books.id }).from(books).where(inArray(books.id, ids));
  const missing = ids.find((id) => !found.some((b) => b.id === id));
  if (missing !== undefined) {
    const message = `No book has the id ${missing}`;
    throw new AppError('VALIDATION_ERROR', 400, message, { items: message });
  }
}

async function writeItems(tx: DbOrTx, bundleId: number, body: BundleBody) {
  await tx.delete(bundleItems).where(eq(bundleItems.bundleId, bundleId));
  await tx.insert(bundleItems).values(body.items.map((item, position) => ({ bundleId, bookId: item.bookId, format: item.format, position })));
}

export async function createBundle(db: Db, body: BundleBody, actorId: ActorId, now: Date): Promise<AdminBundle> {
  await refuseUnknownBooks(db, body);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bundles)
      .values({ name: body.name, price: body.price, active: body.active, createdAt: now, updatedAt: now })
      .returning({ id: bundles.id });
    await writeItems(tx, row.id, body);
    await audit(tx, actorId, { action: 'bundle.create', targetType: 'bundle', targetId: row.id, details: { name: body.name, price: body.price } }, now);
    return row.id;
  });
  return adminBundle(db, id);
}

export async function updateBundle(db: Db, id: number, body: BundleBody, actorId: ActorId, now: Date): Promise<AdminBundle> {
  await refuseUnknownBooks(db, body);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(bundles)
      .set({ name: body.name, price: body.price, active: body.active, updatedAt: now })
      .where(eq(bundles.id, id))
      .returning({ id: bundles.id });
    if (!row) throw notFound(BUNDLE_MESSAGES.notFound);
    await writeItems(tx, id, body);
    await audit(tx, actorId, { action: 'bundle.update', targetType: 'bundle', targetId: id, details: { name: body.name, price: body.price, active: body.active } }, now);
  });
  return adminBundle(db, id);
}
