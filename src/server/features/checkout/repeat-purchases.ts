/**
 * No one pays twice by accident (issue 25, decision 0066):
 *  - a digital format the reader owns is refused before any payment ("Already in your library");
 *  - one purchase intent (a click on Buy, carried as an idempotency key) starts at most one checkout: a
 *    repeated request, such as browser Back to /checkout, answers the same payment page, or the
 *    confirmation once it is paid;
 *  - a print format bought a moment ago is only bought again when the reader confirms they want another.
 * Gifts are not repeats: a format bought for someone else never lands in the buyer's library.
 */
import { and, desc, eq, gte, inArray } from 'drizzle-orm';
import { PURCHASE_FORMATS, isDigitalFormat } from '@shared/constants';
import {
  type CheckoutResponse,
  type MyFormatsResponse,
  RECENT_PURCHASE_WINDOW_MS,
  REPEAT_PURCHASE_CODES,
  REPEAT_PURCHASE_MESSAGES,
} from '@shared/schemas/checkout';
import type { DbOrTx } from '../../db/client';
import { checkoutSessions, purchases } from '../../db/schema';
import { AppError } from '../../platform/http/errors';
import { getFeaturedBook } from '../books/service';
import { OWNED_KINDS } from '../../db/purchase-kinds';
import { ownsFormat } from '../library/service';

type SessionRow = typeof checkoutSessions.$inferSelect;

/** Statuses of a purchase that went through (a print order may have shipped since). */
const DONE_STATUSES = ['completed', 'shipped'];

/** Where a completed checkout's confirmation is shown. */
export const confirmationPath = (checkoutId: string) => `/pay/${checkoutId}`;

/** Two requests of one intent at the same moment: the other one is still creating the payment page. */
export const checkoutInProgress = () =>
  new AppError('CHECKOUT_IN_PROGRESS', 409, 'Your checkout is being prepared. Please try again in a moment.');

export const alreadyOwned = () =>
  new AppError(REPEAT_PURCHASE_CODES.alreadyOwned, 409, REPEAT_PURCHASE_MESSAGES.alreadyOwned);

/** The checkout this reader already started for this purchase intent, if any. */
export async function findIntentSession(db: DbOrTx, userId: number, key: string): Promise<SessionRow | null> {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

/**
 * The answer for a repeated purchase intent: the confirmation of a paid checkout, the payment page of
 * one still open, or null when the earlier checkout was cancelled or ran out (the key is then released,
 * so the reader can start again with it).
 */
export async function answerRepeatedIntent(
  db: DbOrTx,
  session: SessionRow,
  request: { bookId: number; format: string },
  now: Date,
): Promise<CheckoutResponse | null> {
  if (session.bookId !== request.bookId || session.format !== request.format) {
    throw new AppError('INTENT_MISMATCH', 409, 'This purchase was started for another format. Please choose your format again.');
  }
  if (session.status === 'completed') return { url: confirmationPath(session.id), completed: true };
  if (session.status === 'open' && session.expiresAt > now) {
    if (session.paymentUrl) return { url: session.paymentUrl };
    // A concurrent request with the same key is still asking the provider for its page.
    throw checkoutInProgress();
  }
  await db.update(checkoutSessions).set({ idempotencyKey: null }).where(eq(checkoutSessions.id, session.id));
  return null;
}

/** The reader's newest purchase of this format, paid for themselves within the recent window. */
export async function findRecentPurchase(db: DbOrTx, userId: number, bookId: number, formats: readonly string[], now: Date) {
  return db
    .select({
      format: purchases.format,
      orderReference: purchases.orderReference,
      purchasedAt: purchases.purchaseDate,
      checkoutId: checkoutSessions.id,
    })
    .from(purchases)
    .leftJoin(checkoutSessions, eq(checkoutSessions.purchaseId, purchases.id))
    .where(
      and(
        eq(purchases.userId, userId),
        eq(purchases.bookId, bookId),
        inArray(purchases.format, [...formats]),
        eq(purchases.kind, 'paid'),
        inArray(purchases.status, DONE_STATUSES),
        gte(purchases.purchaseDate, new Date(now.getTime() - RECENT_PURCHASE_WINDOW_MS)),
      ),
    )
    .orderBy(desc(purchases.purchaseDate), desc(purchases.id));
}

/**
 * Refuses what would be a second payment for the same thing: an owned digital format always, a print
 * format bought a moment ago unless the reader confirmed another copy. Runs before any payment exists.
 */
export async function assertNotRepeat(
  db: DbOrTx,
  input: { userId: number; bookId: number; format: string; gift: boolean; confirmRepeat: boolean; now: Date },
): Promise<void> {
  if (input.gift) return;
  if (isDigitalFormat(input.format)) {
    if (await ownsFormat(db, input.userId, input.bookId, input.format)) throw alreadyOwned();
    return;
  }
  if (input.confirmRepeat) return;
  const [recent] = await findRecentPurchase(db, input.userId, input.bookId, [input.format], input.now);
  if (recent) throw new AppError(REPEAT_PURCHASE_CODES.recent, 409, REPEAT_PURCHASE_MESSAGES.recent);
}

/** The purchase section's view of the signed-in reader: which formats they own, which they just bought. */
export async function listMyFormats(db: DbOrTx, userId: number, now: Date): Promise<MyFormatsResponse> {
  const book = await getFeaturedBook(db);
  if (!book) return { bookId: null, formats: [] };
  const [ownedRows, recentRows] = await Promise.all([
    db
      .selectDistinct({ format: purchases.format })
      .from(purchases)
      .where(
        and(
          eq(purchases.userId, userId),
          eq(purchases.bookId, book.id),
          eq(purchases.status, 'completed'),
          inArray(purchases.kind, [...OWNED_KINDS]),
        ),
      ),
    findRecentPurchase(db, userId, book.id, PURCHASE_FORMATS, now),
  ]);
  const owned = new Set(ownedRows.map((r) => r.format));
  return {
    bookId: book.id,
    formats: PURCHASE_FORMATS.map((format) => {
      const recent = recentRows.find((r) => r.format === format);
      return {
        format,
        owned: isDigitalFormat(format) && owned.has(format),
        recentPurchase: recent
          ? {
              orderReference: recent.orderReference,
              purchasedAt: recent.purchasedAt.toISOString(),
              confirmationPath: recent.checkoutId ? confirmationPath(recent.checkoutId) : '/profile#library',
            }
          : null,
      };
    }),
  };
}
