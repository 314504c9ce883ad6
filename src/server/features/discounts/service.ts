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
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { audit, type ActorId } from '../../platform/operations/audit';
import { discountCodes } from '../../db/schema';
import { afterCursor, cursorKey, keysetOrder, keysetPage, type Keyset } from '../../db/keyset';
import type { Cursor } from '@shared/schemas/pages';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { AppError, conflict, notFound } from '../../platform/http/errors';

export type DiscountRow = typeof discountCodes.$inferSelect;
type DiscountBody = z.output<typeof discountInputSchema>;

/** Why a code is refused, with the message the reader reads (docs/PRODUCT.md, Discount codes). */
export interface DiscountRefusal {
  ok: false;
  reason: 'unknown' | 'inactive' | 'expired' | 'exhausted' | 'inapplicable';
  message: string;
}

const refused = (reason: DiscountRefusal['reason'], message: string): DiscountRefusal => ({ ok: false, reason, message });

/** What a refused code answers over HTTP: a 400 whose message sits on the code's field. */
export const discountRefusedError = (refusal: DiscountRefusal) =>
  new AppError('DISCOUNT_REFUSED', 400, refusal.message, { discountCode: refusal.message });

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
export async function usableCode(db: DbOrTx, code: string, now: Date): Promise<{ ok: true; code: DiscountRow } | DiscountRefusal> {
  const row = await findByCode(db, code);
  if (!row) return refused('unknown', DISCOUNT_REFUSALS.unknown);
  if (!row.active) return refused('inactive', DISCOUNT_REFUSALS.inactive);
  if (row.expiresAt && row.expiresAt <= now) return refused('expired', DISCOUNT_REFUSALS.expired);
  if (row.maxRedemptions != null && row.redemptions >= row.maxRedemptions) return refused('exhausted', DISCOUNT_REFUSALS.exhausted);
  return { ok: true, code: row };
}

export const appliesTo = (row: DiscountRow, format: string) => !row.formats || row.formats.includes(format);

/** The refusal of a code that applies to none of these formats. */
export const inapplicable = (formats: string[]): DiscountRefusal =>
  refused('inapplicable', DISCOUNT_REFUSALS.inapplicable(formats.map((f) => formatLabel(f).toLowerCase()).join(' or the ')));

export interface PricedCheckout {
  amount: number;
  originalAmount: number | null;
  discountCodeId: number | null;
  discountCode: string | null;
}

/**
 * The price of one format with an optional code, or the refusal with the message the reader reads. The
 * use itself is only counted on payment (redeemDiscount), so this check is advisory for "used up" and
 * final for everything else.
 */
export async function priceWithDiscount(
  db: DbOrTx,
  input: { format: string; price: number; code: string | undefined; now: Date },
): Promise<{ ok: true; priced: PricedCheckout } | DiscountRefusal> {
  if (!input.code) return { ok: true, priced: { amount: input.price, originalAmount: null, discountCodeId: null, discountCode: null } };
  const usable = await usableCode(db, input.code, input.now);
  if (!usable.ok) return usable;
  const row = usable.code;
  if (!appliesTo(row, input.format)) return inapplicable([input.format]);
  return {
    ok: true,
    priced: { amount: discountedPrice(input.price, row), originalAmount: input.price, discountCodeId: row.id, discountCode: row.code },
  };
}

/** The code as the author wrote it, for the receipt; null without one. */
export async function discountCodeName(tx: DbOrTx, discountCodeId: number | null): Promise<string | null> {
  if (discountCodeId === null) return null;
  const [row] = await tx.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.id, discountCodeId));
  return row?.code ?? null;
}

/**
 * Counts one use, in ONE conditional statement: of any number of concurrent paid checkouts only as many
 * as uses remain get a row back (PostgreSQL re-checks the condition on the row another transaction just
 * committed). 'used-up' means the code ran out between checkout and payment.
 */
export async function redeemDiscount(tx: DbOrTx, discountCodeId: number): Promise<{ ok: true } | { ok: false; reason: 'used-up' }> {
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
  return rows.length > 0 ? { ok: true } : { ok: false, reason: 'used-up' };
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
