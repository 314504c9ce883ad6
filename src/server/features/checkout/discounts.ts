import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import {
  DISCOUNT_MESSAGES,
  DISCOUNT_REFUSALS,
  type Discount,
  type DiscountPage,
  type discountInputSchema,
  discountedPrice,
} from '@shared/schemas/discounts';
import { formatLabel } from '@shared/constants';
import { discountRanOutMail } from './templates';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Db, DbOrTx } from '../../db/client';
import { audit, type ActorId } from '../../platform/operations/audit';
import { checkoutSessions, discountCodes, users } from '../../db/schema';
import { afterCursor, cursorKey, keysetOrder, keysetPage, type Keyset } from '../../db/keyset';
import type { Cursor } from '@shared/schemas/pages';
import type { PaymentEvent } from '../../platform/payments';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { isFirstDelivery } from './payment-events';
import { AppError, conflict, notFound } from '../../platform/http/errors';

export type DiscountRow = typeof discountCodes.$inferSelect;
type DiscountBody = z.output<typeof discountInputSchema>;

const refused = (message: string) => new AppError('DISCOUNT_REFUSED', 400, message, { discountCode: message });

export function toDiscount(row: DiscountRow): Discount {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    formats: (row.formats as Discount['formats']) ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxRedemptions: row.maxRedemptions,
    redemptions: row.redemptions,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

const findByCode = async (db: DbOrTx, code: string) =>
  (await db.select().from(discountCodes).where(sql`lower(${discountCodes.code}) = lower(${code})`).limit(1))[0];

/** A code that exists and may be used now, whatever it is used on; anything else is refused with its message. */
export async function usableCode(db: DbOrTx, code: string, now: Date): Promise<DiscountRow> {
  const row = await findByCode(db, code);
  if (!row) throw refused(DISCOUNT_REFUSALS.unknown);
  if (!row.active) throw refused(DISCOUNT_REFUSALS.inactive);
  if (row.expiresAt && row.expiresAt <= now) throw refused(DISCOUNT_REFUSALS.expired);
  if (row.maxRedemptions != null && row.redemptions >= row.maxRedemptions) throw refused(DISCOUNT_REFUSALS.exhausted);
  return row;
}

export const appliesTo = (row: DiscountRow, format: string) => !row.formats || row.formats.includes(format);

/** The refusal of a code that applies to none of these formats. */
export const inapplicable = (formats: string[]) =>
  refused(DISCOUNT_REFUSALS.inapplicable(formats.map((f) => formatLabel(f).toLowerCase()).join(' or the ')));

export interface PricedCheckout {
  amount: number;
  originalAmount: number | null;
  discountCodeId: number | null;
  discountCode: string | null;
}

/**
 * The price of one format with an optional code. Every refusal is a 400 with the message the reader
 * reads; the use itself is only counted on payment (redeemDiscount), so this check is advisory for
 * "used up" and final for everything else.
 */
export async function priceWithDiscount(
  db: DbOrTx,
  input: { format: string; price: number; code: string | undefined; now: Date },
): Promise<PricedCheckout> {
  if (!input.code) return { amount: input.price, originalAmount: null, discountCodeId: null, discountCode: null };
  const row = await usableCode(db, input.code, input.now);
  if (!appliesTo(row, input.format)) throw inapplicable([input.format]);
  return {
    amount: discountedPrice(input.price, row),
    originalAmount: input.price,
    discountCodeId: row.id,
    discountCode: row.code,
  };
}

/**
 * Counts one use, in ONE conditional statement: of any number of concurrent paid checkouts only as many
 * as uses remain get a row back (PostgreSQL re-checks the condition on the row another transaction just
 * committed). False means the code ran out between checkout and payment.
 */
/** The code as the author wrote it, for the receipt; null without one. */
export async function discountCodeName(tx: DbOrTx, discountCodeId: number | null): Promise<string | null> {
  if (discountCodeId === null) return null;
  const [row] = await tx.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.id, discountCodeId));
  return row?.code ?? null;
}

export async function redeemDiscount(tx: DbOrTx, discountCodeId: number): Promise<boolean> {
  const rows = await tx
    .update(discountCodes)
    .set({ redemptions: sql`${discountCodes.redemptions} + 1` })
    .where(
      and(
        eq(discountCodes.id, discountCodeId),
        or(isNull(discountCodes.maxRedemptions), lt(discountCodes.redemptions, discountCodes.maxRedemptions)),
      ),
    )
    .returning({ id: discountCodes.id });
  return rows.length > 0;
}

interface RanOutSession {
  id: string;
  userId: number;
  provider: string;
  providerSessionId: string | null;
  paymentId: string | null;
}

/** Thrown inside the fulfilment transaction so that nothing of a checkout whose code ran out is kept. */
export class DiscountRanOutError extends Error {
  constructor(
    readonly session: RanOutSession,
  ) {
    super('discount code used up before payment');
    this.name = 'DiscountRanOutError';
  }
}

/**
 * After the rollback: a checkout whose code ran out is closed without a purchase. On the local page nothing
 * was charged (its Pay answers the refusal); a Stripe payment is given back at once, before the event is
 * recorded, so a failed refund makes the webhook fail and Stripe delivers it again (decision 0050).
 */
export async function settleRanOutCheckout(
  deps: AppDeps,
  event: PaymentEvent,
  session: RanOutSession,
): Promise<{ outcome: 'discount-ran-out' | 'duplicate-event' }> {
  const { db } = deps.database;
  const { payments, clock, mailer } = deps;
  if (session.provider !== 'local') {
    if (!payments.refund) throw new Error(`the ${payments.name} provider cannot refund`);
    await payments.refund({
      providerSessionId: session.providerSessionId ?? '',
      paymentId: session.paymentId,
      idempotencyKey: `discount-ran-out-${session.id}`,
    });
  }
  return db.transaction(async (tx) => {
    const now = clock.now();
    const fresh = await isFirstDelivery(tx, event, now);
    if (!fresh && session.provider !== 'local') return { outcome: 'duplicate-event' as const };
    const closed = await tx
      .update(checkoutSessions)
      .set({ status: 'cancelled' })
      .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'open')))
      .returning({ id: checkoutSessions.id });
    if (closed.length > 0 && session.provider !== 'local') {
      const [buyer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, session.userId));
      if (buyer) {
        await mailer.enqueue(discountRanOutMail(buyer.email), tx);
      }
    }
    return { outcome: 'discount-ran-out' as const };
  });
}

// --- admin ---------------------------------------------------------------------------------------

/** By code; the keyset of discount_codes_code_idx. */
const CODES_IN_ORDER: Keyset = { sort: discountCodes.code, id: discountCodes.id, type: 'text', direction: 'asc' };

/** One page of the codes, by code (decision 0071). */
export async function listDiscounts(db: DbOrTx, query: { after?: Cursor; limit: number }): Promise<DiscountPage> {
  const found = await db
    .select({ row: discountCodes, cursorKey: cursorKey(CODES_IN_ORDER) })
    .from(discountCodes)
    .where(afterCursor(CODES_IN_ORDER, query.after))
    .orderBy(...keysetOrder(CODES_IN_ORDER))
    .limit(query.limit + 1);
  const { items, nextCursor } = keysetPage(found, query.limit, (r) => r.row.id);
  return { items: items.map((r) => toDiscount(r.row)), nextCursor };
}

const values = (body: DiscountBody) => ({
  code: body.code,
  percentOff: body.percentOff ?? null,
  amountOff: body.amountOff ?? null,
  formats: body.formats ?? null,
  expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
  maxRedemptions: body.maxRedemptions ?? null,
  active: body.active ?? true,
});

/**
 * A new or changed expiry must lie ahead: a code saved already expired would refuse every reader while
 * the list shows it like any other (decision 0050). An expired code edited without touching its expiry
 * (to switch it off, say) keeps it.
 */
function refusePastExpiry(body: DiscountBody, now: Date, stored: Date | null = null) {
  if (!body.expiresAt) return;
  const at = new Date(body.expiresAt).getTime();
  if (at > now.getTime() || at === stored?.getTime()) return;
  throw new AppError('VALIDATION_ERROR', 400, DISCOUNT_MESSAGES.expiryPast, { expiresAt: DISCOUNT_MESSAGES.expiryPast });
}

const duplicate = () => conflict(DISCOUNT_MESSAGES.duplicate, { code: DISCOUNT_MESSAGES.duplicate });

export function createDiscount(db: Db, body: DiscountBody, actorId: ActorId, now: Date): Promise<Discount> {
  refusePastExpiry(body, now);
  return db.transaction(async (tx) => {
    let created: Discount;
    try {
      const [row] = await tx.insert(discountCodes).values({ ...values(body), createdAt: now, updatedAt: now }).returning();
      created = toDiscount(row);
    } catch (error) {
      if (uniqueViolation(error) !== null) throw duplicate();
      throw error;
    }
    await audit(tx, actorId, { action: 'discount.create', targetType: 'discount', targetId: created.id, details: { code: created.code } }, now);
    return created;
  });
}

export async function updateDiscount(db: Db, id: number, body: DiscountBody, actorId: ActorId, now: Date): Promise<Discount> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(discountCodes).where(eq(discountCodes.id, id)).for('update');
    if (!current) throw notFound('Discount code not found');
    refusePastExpiry(body, now, current.expiresAt);
    if (body.maxRedemptions != null && body.maxRedemptions < current.redemptions) {
      const message = `Maximum uses cannot be below the ${current.redemptions} uses already made`;
      throw new AppError('VALIDATION_ERROR', 400, message, { maxRedemptions: message });
    }
    let updated: Discount;
    try {
      const [row] = await tx
        .update(discountCodes)
        .set({ ...values(body), updatedAt: now })
        .where(eq(discountCodes.id, id))
        .returning();
      updated = toDiscount(row);
    } catch (error) {
      if (uniqueViolation(error) !== null) throw duplicate();
      throw error;
    }
    await audit(tx, actorId, { action: 'discount.update', targetType: 'discount', targetId: updated.id, details: { code: updated.code, active: updated.active } }, now);
    return updated;
  });
}
