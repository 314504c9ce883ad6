/**
 * Shipping zones (decision 0081): which countries print ships to and what it costs. A basket's shipping
 * is one line: the first print copy's price plus each further copy's, free from the zone's threshold.
 */
import { asc, eq } from 'drizzle-orm';
import { SHIPPING_MESSAGES, type ShippingZone, type ShippingZoneInput } from '@shared/schemas/shipping';
import type { DbOrTx } from '../../db/client';
import { shippingZones } from '../../db/schema';
import { audit, type ActorId } from '../../platform/operations/audit';
import { AppError, notFound } from '../../platform/http/errors';

type ZoneRow = typeof shippingZones.$inferSelect;

const toZone = (r: ZoneRow): ShippingZone => ({
  id: r.id,
  name: r.name,
  countries: r.countries,
  firstItem: r.firstItem,
  additionalItem: r.additionalItem,
  freeOver: r.freeOver,
});

export async function listZones(db: DbOrTx): Promise<ShippingZone[]> {
  const rows = await db.select().from(shippingZones).orderBy(asc(shippingZones.name), asc(shippingZones.id));
  return rows.map(toZone);
}

/** A country belongs to one zone at most, so its price is never ambiguous. */
async function refuseTakenCountries(db: DbOrTx, input: ShippingZoneInput, ownId: number | null): Promise<void> {
  for (const zone of await listZones(db)) {
    if (zone.id === ownId) continue;
    const taken = input.countries.find((c) => zone.countries.includes(c));
    if (taken) {
      const message = SHIPPING_MESSAGES.countryTaken(taken, zone.name);
      throw new AppError('COUNTRY_IN_ANOTHER_ZONE', 409, message, { countries: message });
    }
  }
}

export async function createZone(db: DbOrTx, input: ShippingZoneInput, actor: ActorId, now: Date): Promise<ShippingZone> {
  return db.transaction(async (tx) => {
    await refuseTakenCountries(tx, input, null);
    const [row] = await tx.insert(shippingZones).values({ ...input, createdAt: now }).returning();
    await audit(tx, actor, { action: 'shipping_zone.create', targetType: 'shipping_zone', targetId: row.id, details: { name: row.name } }, now);
    return toZone(row);
  });
}

export async function updateZone(db: DbOrTx, id: number, input: ShippingZoneInput, actor: ActorId, now: Date): Promise<ShippingZone> {
  return db.transaction(async (tx) => {
    await refuseTakenCountries(tx, input, id);
    const [row] = await tx.update(shippingZones).set(input).where(eq(shippingZones.id, id)).returning();
    if (!row) throw notFound(SHIPPING_MESSAGES.zoneNotFound);
    await audit(tx, actor, { action: 'shipping_zone.update', targetType: 'shipping_zone', targetId: id, details: { name: row.name } }, now);
    return toZone(row);
  });
}

export async function deleteZone(db: DbOrTx, id: number, actor: ActorId, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(shippingZones).where(eq(shippingZones.id, id)).returning({ id: shippingZones.id });
    if (!row) throw notFound(SHIPPING_MESSAGES.zoneNotFound);
    await audit(tx, actor, { action: 'shipping_zone.delete', targetType: 'shipping_zone', targetId: id }, now);
  });
}

/** Every country some zone ships to, sorted; empty when the author defined no zones. */
export async function shippingCountries(db: DbOrTx): Promise<string[]> {
  return [...new Set((await listZones(db)).flatMap((z) => z.countries))].sort();
}

/** The country's name in English for messages ("France"), or its code when unknown. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en-GB'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export interface ShippingQuote {
  /** What shipping costs before any tax added on top; 0 when free. */
  charge: number;
  zoneName: string;
}

/**
 * Shipping for `printCopies` copies of print worth `itemsTotal` (after any discount) to `country`.
 * Null when the author defined no zones: print then ships as it always did, at no charge, anywhere.
 * A missing country or one outside every zone is refused, before any payment exists.
 */
export async function quoteShipping(db: DbOrTx, country: string | null, printCopies: number, itemsTotal: number): Promise<ShippingQuote | null> {
  if (printCopies === 0) return null;
  const zones = await listZones(db);
  if (zones.length === 0) return null;
  if (!country) {
    throw new AppError('VALIDATION_ERROR', 400, SHIPPING_MESSAGES.chooseCountry, { shippingCountry: SHIPPING_MESSAGES.chooseCountry });
  }
  const zone = zones.find((z) => z.countries.includes(country));
  if (!zone) throw new AppError('SHIPPING_UNAVAILABLE', 409, SHIPPING_MESSAGES.cannotShip(countryName(country)));
  const free = zone.freeOver !== null && itemsTotal >= zone.freeOver;
  return { charge: free ? 0 : zone.firstItem + (printCopies - 1) * zone.additionalItem, zoneName: zone.name };
}
