import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { siteSettings } from '../db/schema';
import { systemRandom } from './crypto';

/** Keys under this prefix are the server's own and never shown to or edited by the admin. */
export const INTERNAL_PREFIX = 'internal.';

export async function getSetting<T>(db: DbOrTx, key: string): Promise<T | null> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key));
  return (row?.value as T | undefined) ?? null;
}

export async function setSetting(db: DbOrTx, key: string, value: unknown): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: sql`now()` } });
}

/** Inserts only when absent; returns what is stored (the first writer wins across instances). */
export async function ensureSetting<T>(db: DbOrTx, key: string, value: T): Promise<T> {
  await db.insert(siteSettings).values({ key, value }).onConflictDoNothing();
  return (await getSetting<T>(db, key)) as T;
}

/**
 * The secret that signs CSRF tokens and download links. SESSION_SECRET wins; without it one is made once
 * and kept in the database, so every instance sharing the database agrees on it.
 */
export async function resolveServerSecret(db: DbOrTx, configured?: string): Promise<string> {
  if (configured) return configured;
  return ensureSetting(db, `${INTERNAL_PREFIX}secret`, systemRandom.token(48));
}
