/**
 * What makes a reader own a format: a completed row of a kind its holder owns. A 'gift' row is paid for
 * but owned by its recipient (through the 'gift_claim' row); a 'free' row is the author's free book (0097); a 'review_copy' the author's copy for a reviewer (0099). Kept apart from the library service so that
 * checkout can ask it without importing the library, which itself reads checkout's included e-books.
 */
import { type Placeholder, and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { purchases } from '../../db/schema';
import { OWNED_KINDS } from '../../db/purchase-kinds';

export const owned = inArray(purchases.kind, [...OWNED_KINDS]);

/** The rows that make this reader own this format of the book. */
export const ownedFormat = (userId: number, bookId: number, format: string) =>
  and(eq(purchases.userId, userId), eq(purchases.bookId, bookId), eq(purchases.format, format), eq(purchases.status, 'completed'), owned);

/** Whether the reader owns this format of the book (a completed row of an owned kind). */
export async function ownsFormat(db: DbOrTx, userId: number, bookId: number, format: string): Promise<boolean> {
  const [row] = await db.select({ id: purchases.id }).from(purchases).where(ownedFormat(userId, bookId, format)).limit(1);
  return row !== undefined;
}

/** Whether the reader owns any format of the book: what makes a verified reviewer (decision 0085). */
export async function ownsAnyFormat(db: DbOrTx, userId: number, bookId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.bookId, bookId), eq(purchases.status, 'completed'), owned))
    .limit(1);
  return row !== undefined;
}

/** The purchase, if it is this reader's and still entitles them. */
export const entitledPurchase = (purchaseId: number | Placeholder, userId: number | Placeholder) =>
  and(eq(purchases.id, purchaseId), eq(purchases.userId, userId), eq(purchases.status, 'completed'), owned);

/** The purchase a download link was issued for, if it still entitles its holder. */
export async function findEntitledPurchase(db: DbOrTx, purchaseId: number, userId: number) {
  const [row] = await db
    .select({ id: purchases.id, bookId: purchases.bookId, format: purchases.format })
    .from(purchases)
    .where(entitledPurchase(purchaseId, userId))
    .limit(1);
  return row ?? null;
}
