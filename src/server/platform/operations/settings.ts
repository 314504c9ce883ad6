import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { siteSettings } from '../../db/schema';
import { systemRandom } from '../security/crypto';

/** Keys under this prefix are the server's own and never shown to or edited by the admin. */
export const INTERNAL_PREFIX = 'internal.';

const SECRET_KEY = `${INTERNAL_PREFIX}secret` as const;

/**
 * The settings registry: every site_settings key, with the type stored under it. A feature registers its
 * keys beside the code that owns them by augmenting this interface (`declare module`), so reading or
 * writing an unknown key, or the wrong shape, fails to compile, and the platform imports no feature.
 */
export interface SettingTypes {
  [SECRET_KEY]: string;
}
export type SettingKey = keyof SettingTypes;

export async function getSetting<K extends SettingKey>(db: DbOrTx, key: K): Promise<SettingTypes[K] | null> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key));
  return (row?.value as SettingTypes[K] | undefined) ?? null;
}

export async function setSetting<K extends SettingKey>(db: DbOrTx, key: K, value: SettingTypes[K]): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: sql`now()` } });
}

/** Inserts only when absent; returns what is stored (the first writer wins across instances). */
export async function ensureSetting<K extends SettingKey>(db: DbOrTx, key: K, value: SettingTypes[K]): Promise<SettingTypes[K]> {
  await db.insert(siteSettings).values({ key, value }).onConflictDoNothing();
  return (await getSetting(db, key))!;
}

/**
 * The secret that signs CSRF tokens and download links. SESSION_SECRET wins; without it one is made once
 * and kept in the database, so every instance sharing the database agrees on it.
 */
export async function resolveServerSecret(db: DbOrTx, configured?: string): Promise<string> {
  if (configured) return configured;
  return ensureSetting(db, SECRET_KEY, systemRandom.token(48));
}
