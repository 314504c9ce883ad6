/**
 * The reader's library in a reading app (decision 0087): an OPDS 1.2 acquisition catalogue of the e-books
 * and PDFs they own, reached either by an address with an opaque token or by HTTP Basic with their user
 * name and a per-reader app password. Acquisition links stream the reader's own personal copy, the same
 * bytes the download gives, without spending the download.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { opdsCatalogues, users } from '../../db/schema';
import { hmac, safeEqual } from '../../platform/security/crypto';
import { listLibrary } from '../library/service';

type CatalogueRow = typeof opdsCatalogues.$inferSelect;

const tokenSignature = (secret: string, row: Pick<CatalogueRow, 'userId' | 'nonce'>) => hmac(secret, `opds:${row.userId}:${row.nonce}`);
const passwordHash = (secret: string, userId: number, password: string) => hmac(secret, `opds-password:${userId}:${password}`);

/** `<userId>-<signature>`: the id finds the row, the signature of its nonce proves the holder was given it. */
export const catalogueToken = (secret: string, row: Pick<CatalogueRow, 'userId' | 'nonce'>) => `${row.userId}-${tokenSignature(secret, row)}`;

export interface CatalogueState {
  enabled: boolean;
  token: string | null;
  username: string;
}

export async function catalogueState(deps: AppDeps, userId: number): Promise<CatalogueState> {
  const { db } = deps.database;
  const [row] = await db.select().from(opdsCatalogues).where(eq(opdsCatalogues.userId, userId)).limit(1);
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return { enabled: Boolean(row), token: row ? catalogueToken(deps.secret, row) : null, username: user?.username ?? '' };
}

/**
 * Turns the catalogue on, or gives it a new address and password when it is on already: the old ones stop
 * at once. The app password is answered this once and kept only as a keyed hash.
 */
export async function enableCatalogue(deps: AppDeps, userId: number): Promise<CatalogueState & { password: string }> {
  const password = deps.random.token(18);
  const values = { userId, nonce: deps.random.token(24), passwordHash: passwordHash(deps.secret, userId, password), createdAt: deps.clock.now() };
  await deps.database.db
    .insert(opdsCatalogues)
    .values(values)
    .onConflictDoUpdate({ target: opdsCatalogues.userId, set: { nonce: values.nonce, passwordHash: values.passwordHash, createdAt: values.createdAt } });
  return { ...(await catalogueState(deps, userId)), password };
}

export async function disableCatalogue(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(opdsCatalogues).where(eq(opdsCatalogues.userId, userId));
}

/** The reader a token address belongs to, while their catalogue is on with that token. */
export async function readerByToken(deps: AppDeps, token: string): Promise<number | null> {
  const match = /^(\d{1,10})-([\w-]{20,64})$/.exec(token);
  if (!match) return null;
  const [row] = await deps.database.db.select().from(opdsCatalogues).where(eq(opdsCatalogues.userId, Number(match[1]))).limit(1);
  return row && safeEqual(match[2], tokenSignature(deps.secret, row)) ? row.userId : null;
}

/** The reader HTTP Basic names (user name or email, any case), if their catalogue is on and the password is theirs. */
export async function readerByPassword(deps: AppDeps, login: string, password: string): Promise<number | null> {
  if (!login || !password || login.length > 320 || password.length > 200) return null;
  const name = login.toLowerCase();
  const [row] = await deps.database.db
    .select({ userId: opdsCatalogues.userId, passwordHash: opdsCatalogues.passwordHash })
    .from(opdsCatalogues)
    .innerJoin(users, eq(users.id, opdsCatalogues.userId))
    .where(or(eq(sql`lower(${users.username})`, name), eq(sql`lower(${users.email})`, name)))
    .limit(1);
  if (!row) return null;
  return safeEqual(row.passwordHash, passwordHash(deps.secret, row.userId, password)) ? row.userId : null;
}

/** What a reading app can take: the released e-books and PDFs whose file is in, grouped by book. */
export async function catalogueBooks(deps: AppDeps, userId: number) {
  const items = await listLibrary(deps.database.db, userId, deps.clock.now());
  const byBook = new Map<number, { book: (typeof items)[number]['book']; purchaseDate: string; copies: Array<{ purchaseId: number; format: 'ebook' | 'pdf' }> }>();
  for (const item of items) {
    if ((item.format !== 'ebook' && item.format !== 'pdf') || item.availableAt || item.fileReady === false) continue;
    const entry = byBook.get(item.bookId) ?? { book: item.book, purchaseDate: item.purchaseDate, copies: [] };
    entry.copies.push({ purchaseId: item.id, format: item.format });
    byBook.set(item.bookId, entry);
  }
  return [...byBook.values()];
}

export async function readerName(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ username: users.username, displayName: users.displayName }).from(users).where(and(eq(users.id, userId))).limit(1);
  return row?.displayName || row?.username || 'Reader';
}
