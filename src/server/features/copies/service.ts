import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { personalCopies, purchases, users } from '../../db/schema';
import type { Clock, Random } from '../../platform/security/crypto';
import type { FileStore } from '../../platform/storage/files';
import { readStoredPdf } from '../../platform/storage/pdf';
import { newFingerprint } from './fingerprint';
import { giftDedication } from '../gifts/service';
import { readStoredEpub } from './epub-container';
import { personaliseEpub } from './personalise-epub';
import { personalisePdf } from './personalise-pdf';

// What other features may use of this one (their only way in).
export { preflightEpub, preflightMessage } from './epub-preflight';
export { storedContents, storedSpine } from './epub-container';

/** Formats that get a personal copy; the audiobook is served as the master file. */
export const PERSONALISED_FORMATS = ['ebook', 'pdf'] as const;
export const isPersonalised = (format: string): format is (typeof PERSONALISED_FORMATS)[number] =>
  (PERSONALISED_FORMATS as readonly string[]).includes(format);

export interface CopyDeps {
  db: Db;
  files: FileStore;
  random: Random;
  clock: Clock;
}

export interface CopyPurchase {
  id: number;
  userId: number;
  format: string;
}

/** The master file a copy is made from: its store key changes with every upload. */
export interface CopyMaster {
  fileUrl: string;
}

export interface StoredCopy {
  fileKey: string;
  size: number;
  sha256: string;
  builtAt: Date;
  fingerprint: string;
}

const EXTENSION: Record<string, string> = { ebook: 'epub', pdf: 'pdf' };
const CONTENT_TYPE: Record<string, string> = { ebook: 'application/epub+zip', pdf: 'application/pdf' };

/** The purchase's fingerprint, created on first use and never changed afterwards. */
async function fingerprintRow(deps: CopyDeps, purchase: CopyPurchase) {
  const select = () =>
    deps.db
      .select()
      .from(personalCopies)
      .where(and(eq(personalCopies.purchaseId, purchase.id), eq(personalCopies.format, purchase.format)));
  // Every download after the first only reads.
  const [existing] = await select();
  if (existing) return existing;
  await deps.db
    .insert(personalCopies)
    .values({ purchaseId: purchase.id, format: purchase.format, fingerprint: newFingerprint(deps.random) })
    .onConflictDoNothing({ target: [personalCopies.purchaseId, personalCopies.format] });
  const [row] = await select();
  return row;
}

/** Builds in flight on this instance, so simultaneous first requests share one build. */
const building = new Map<string, Promise<StoredCopy>>();

/**
 * The buyer's personal copy of an ebook or PDF, built on first use from the current master and kept in the
 * file store. A copy built from an older master is rebuilt (same fingerprint) the next time it is asked for.
 * The build is deterministic, so two instances racing on one purchase write identical bytes.
 */
export async function personalCopy(deps: CopyDeps, purchase: CopyPurchase, master: CopyMaster): Promise<StoredCopy> {
  if (!isPersonalised(purchase.format)) throw new Error(`no personal copies for ${purchase.format}`);
  const row = await fingerprintRow(deps, purchase);
  if (row.masterKey === master.fileUrl && row.fileKey && row.size !== null && row.sha256 && row.builtAt) {
    if (await deps.files.stat(row.fileKey)) {
      return { fileKey: row.fileKey, size: row.size, sha256: row.sha256, builtAt: row.builtAt, fingerprint: row.fingerprint };
    }
  }
  const flightKey = `${purchase.id}:${purchase.format}:${master.fileUrl}`;
  let flight = building.get(flightKey);
  if (!flight) {
    flight = build(deps, purchase, master, row.fingerprint).finally(() => building.delete(flightKey));
    building.set(flightKey, flight);
  }
  return flight;
}

async function build(deps: CopyDeps, purchase: CopyPurchase, master: CopyMaster, fingerprint: string): Promise<StoredCopy> {
  const [buyer] = await deps.db
    .select({
      username: users.username,
      displayName: users.displayName,
      purchaseDate: purchases.purchaseDate,
      orderReference: purchases.orderReference,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(eq(purchases.id, purchase.id));
  if (!buyer) throw new Error(`purchase ${purchase.id} not found`);
  const stamp = {
    fingerprint,
    ownerName: buyer.displayName?.trim() || buyer.username,
    purchasedAt: buyer.purchaseDate,
    orderReference: buyer.orderReference,
    gift: await giftDedication(deps.db, purchase.id),
  };
  // The master is opened within the zip limits (the PDF's streams measured before pdf-lib inflates them): a
  // bomb stored before they existed is refused (and remembered).
  const bytes =
    purchase.format === 'ebook'
      ? personaliseEpub(await readStoredEpub(deps.files, master.fileUrl), stamp)
      : await personalisePdf(await readStoredPdf(deps.files, master.fileUrl), stamp);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const fileKey = `copies/${purchase.id}/${purchase.format}-${sha256.slice(0, 16)}.${EXTENSION[purchase.format]}`;
  await deps.files.put(fileKey, bytes, CONTENT_TYPE[purchase.format]);
  const builtAt = deps.clock.now();
  await deps.db
    .update(personalCopies)
    .set({ masterKey: master.fileUrl, fileKey, size: bytes.length, sha256, builtAt })
    .where(and(eq(personalCopies.purchaseId, purchase.id), eq(personalCopies.format, purchase.format)));
  return { fileKey, size: bytes.length, sha256, builtAt, fingerprint };
}

export interface TracedCopy {
  purchaseId: number;
  userId: number;
  username: string;
  /** The reader's display name, or their username when they gave none. */
  name: string;
  email: string;
  orderReference: string;
  format: string;
  purchasedAt: string;
}

/** The purchase a fingerprint belongs to, or null. */
export async function findByFingerprint(db: Db, fingerprint: string): Promise<TracedCopy | null> {
  const [row] = await db
    .select({
      purchaseId: purchases.id,
      userId: users.id,
      username: users.username,
      displayName: users.displayName,
      email: users.email,
      orderReference: purchases.orderReference,
      format: personalCopies.format,
      purchasedAt: purchases.purchaseDate,
    })
    .from(personalCopies)
    .innerJoin(purchases, eq(purchases.id, personalCopies.purchaseId))
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(eq(personalCopies.fingerprint, fingerprint));
  if (!row) return null;
  const { displayName, ...rest } = row;
  return { ...rest, name: displayName?.trim() || row.username, purchasedAt: row.purchasedAt.toISOString() };
}
