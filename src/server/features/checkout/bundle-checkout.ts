/**
 * POST /api/checkout/bundle (decisions 0083, 0095): one payment for a bundle on its own, at the reader's
 * price. It is the basket's checkout given one bundle line, so the order, its part lines, tax, shipping,
 * the provider call and fulfilment are the basket's own.
 */
import { and, desc, eq } from 'drizzle-orm';
import { BUNDLE_MESSAGES, type BundleCheckoutRequest } from '@shared/schemas/bundles';
import type { CheckoutResponse } from '@shared/schemas/checkout';
import type { AppDeps } from '../../deps';
import { bundles, purchases } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { AppError, notFound } from '../../platform/http/errors';
import { priceBasketLines } from './basket';
import { BUNDLE_OWNED } from './basket-bundles';
import { basketTotals, startOrderCheckout } from './basket-checkout';
import { alreadyOwned } from './repeat-purchases';


export async function createBundleCheckout(deps: AppDeps, userId: number, request: BundleCheckoutRequest): Promise<CheckoutResponse> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const { bundleId, ...destination } = request;
  const [active] = await db.select({ id: bundles.id }).from(bundles).where(and(eq(bundles.id, bundleId), eq(bundles.active, true)));
  const lines = active ? await priceBasketLines(db, userId, [{ id: null, bundleId, seenPrice: null }], now) : [];
  const [line] = lines;
  if (!line) throw notFound(BUNDLE_MESSAGES.notFound);
  if (line.issue === 'owned') throw new AppError(alreadyOwned().code, 409, BUNDLE_OWNED);
  if (line.problem) throw new AppError('NOT_AVAILABLE', 409, line.problem);
  const input = { discountCode: undefined, ...destination };
  const totals = await basketTotals(deps, lines, input);
  // One intent per bundle, price, destination and what the reader has bought so far: a double click
  // answers the same checkout, and a later purchase (which changes what they own) is a new one.
  const [latest] = await db.select({ id: purchases.id }).from(purchases).where(eq(purchases.userId, userId)).orderBy(desc(purchases.id)).limit(1);
  const content = [bundleId, line.amount, line.charges.map((c) => [c.bookId, c.format]), destination, totals.total, latest?.id ?? 0];
  const key = `bundle-${sha256(JSON.stringify(content)).slice(0, 40)}`;
  return startOrderCheckout(deps, userId, { lines, code: null, totals, key, input, cancelPath: '/' });
}
