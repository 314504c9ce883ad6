/**
 * Tax (decision 0080). No tax law lives here: the rates are the author's (this table, for the local
 * provider) or Stripe's (Stripe Tax). This module only applies a rate to an amount, the same way for
 * every line, and sums what was charged for the report.
 */
import { asc, eq } from 'drizzle-orm';
import type { PurchaseFormat } from '@shared/constants';
import type { TaxSettings } from '@shared/schemas/tax';
import type { DbOrTx } from '../../db/client';
import { taxRates } from '../../db/schema';
import { audit, type ActorId } from '../../platform/operations/audit';
import { getSetting, setSetting } from '../../platform/operations/settings';

const SETTING_KEY = 'tax.settings' as const;

/** Hundredths of a percent, as stored: 2000 is 20%. */
export type RateBp = number;
const toBp = (percent: number): RateBp => Math.round(percent * 100);
export const toPercent = (bp: RateBp) => bp / 100;

interface StoredSetting {
  pricesIncludeTax: boolean;
  defaultRate: RateBp;
}

declare module '../../platform/operations/settings' {
  interface SettingTypes {
    [SETTING_KEY]: StoredSetting;
  }
}

/** Until the author says otherwise, prices include tax and nothing is taxed: the site as it was. */
const DEFAULT_SETTING: StoredSetting = { pricesIncludeTax: true, defaultRate: 0 };

export async function readTaxSetting(db: DbOrTx): Promise<StoredSetting> {
  return { ...DEFAULT_SETTING, ...((await getSetting(db, SETTING_KEY)) ?? {}) };
}

export async function readTaxSettings(db: DbOrTx): Promise<TaxSettings> {
  const setting = await readTaxSetting(db);
  const rows = await db.select().from(taxRates).orderBy(asc(taxRates.country), asc(taxRates.format));
  return {
    pricesIncludeTax: setting.pricesIncludeTax,
    defaultRate: toPercent(setting.defaultRate),
    rates: rows.map((r) => ({ country: r.country, format: r.format as PurchaseFormat, rate: toPercent(r.rate) })),
  };
}

/** PUT /api/admin/tax: the setting and the whole table, in one transaction. */
export async function saveTaxSettings(db: DbOrTx, input: TaxSettings, actor: ActorId, now: Date): Promise<TaxSettings> {
  await db.transaction(async (tx) => {
    await setSetting(tx, SETTING_KEY, { pricesIncludeTax: input.pricesIncludeTax, defaultRate: toBp(input.defaultRate) } satisfies StoredSetting);
    await tx.delete(taxRates);
    if (input.rates.length > 0) {
      await tx.insert(taxRates).values(input.rates.map((r) => ({ country: r.country, format: r.format, rate: toBp(r.rate), updatedAt: now })));
    }
    await audit(tx, actor, { action: 'tax.update', targetType: 'tax', details: { pricesIncludeTax: input.pricesIncludeTax, rates: input.rates.length } }, now);
  });
  return readTaxSettings(db);
}

/** The rates that apply in one country (null: no country known), by format, and the default. */
export interface TaxRules {
  pricesIncludeTax: boolean;
  rateOf(format: PurchaseFormat): RateBp;
}

export async function taxRulesFor(db: DbOrTx, country: string | null): Promise<TaxRules> {
  const setting = await readTaxSetting(db);
  const rows = country ? await db.select().from(taxRates).where(eq(taxRates.country, country)) : [];
  const own = new Map(rows.map((r) => [r.format, r.rate]));
  return { pricesIncludeTax: setting.pricesIncludeTax, rateOf: (format) => own.get(format) ?? setting.defaultRate };
}

/**
 * The tax of one unit at a rate: the part of the price that is tax when prices include it, the tax on
 * top otherwise. Rounded to the penny per unit, so a line of n copies is n times a whole unit (a Stripe
 * line item) and its tax n times the unit's.
 */
export function unitTax(unitAmount: number, rate: RateBp, pricesIncludeTax: boolean): number {
  if (rate === 0) return 0;
  if (pricesIncludeTax) return unitAmount - Math.round((unitAmount * 10_000) / (10_000 + rate));
  return Math.round((unitAmount * rate) / 10_000);
}

export { taxReport, taxReportTable } from './report';
