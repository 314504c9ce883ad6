import type { Readable } from 'node:stream';
import type { AppDeps } from '../../deps';
import type { ByteRange } from '../../platform/storage/files';
import { ZipDamaged, ZipRefused } from '../../platform/storage/zip';
import { isPersonalised, personalCopy } from '../copies/service';
import { and, eq, sql } from 'drizzle-orm';
import { preparedPerDatabase } from '../../db/prepared';
import { books, digitalAssets, purchases } from '../../db/schema';
import { type AssetRow, findAsset } from './assets';
import { readerFileName } from './download-link';
import { entitledPurchase } from './ownership';
import { getBook } from '../books/service';
import { releaseStateOf } from '../pre-orders/service';

/** A purchase that entitles its holder to a format's file. */
export interface OwnedPurchase {
  id: number;
  userId: number;
  bookId: number;
  format: string;
}

/** The owner's copy of a purchased format, ready to stream whole or in ranges. */
export interface OwnedFile {
  assetId: number;
  format: string;
  contentType: string;
  /** What the reader's copy is called: the book's title, not the name of the author's upload. */
  fileName: string;
  size: number;
  /** Changes whenever the bytes may change, so If-Range and caches never mix two versions. */
  etag: string;
  lastModified: Date;
  /** The storage key the bytes are read from. */
  key: string;
  /** The part of the stored object that is this file (an episode of an audiobook); absent: all of it. */
  slice?: ByteRange;
  read(range?: ByteRange): Promise<Readable>;
}

export type OwnedFileResult =
  | { ok: true; file: OwnedFile }
  | { ok: false; reason: 'no-asset' | 'missing-file' | 'unreadable-file'; key?: string };

export type EntitledFileResult = OwnedFileResult | { ok: false; reason: 'not-entitled' } | { ok: false; reason: 'not-released'; availableAt: Date };

/**
 * THE one place that turns "this reader's purchase of this format" into bytes. The one-time download, the
 * reading room's content stream and Send to Kindle all read through here, so every path gives the same
 * bytes: for the e-book and the PDF the buyer's personal copy (built on first use from the current master
 * and kept, see copies), for the audiobook the master file itself.
 */
export async function openOwnedFile(deps: AppDeps, purchase: OwnedPurchase, format: string): Promise<OwnedFileResult> {
  const [asset, book] = await Promise.all([findAsset(deps.database.db, { bookId: purchase.bookId, format }), getBook(deps.database.db, purchase.bookId)]);
  if (!asset || asset.format !== purchase.format) return { ok: false, reason: 'no-asset' };
  return openAssetFor(deps, purchase, asset, book?.title ?? '');
}

/** The read of what a download link grants, prepared: every transfer waits for it (db/prepared.ts). */
const entitledFileQuery = preparedPerDatabase((db) =>
  db
    .select({ id: purchases.id, bookId: purchases.bookId, format: purchases.format, title: books.title, releaseAt: books.releaseAt, asset: digitalAssets })
    .from(purchases)
    .innerJoin(books, eq(books.id, purchases.bookId))
    .leftJoin(digitalAssets, and(eq(digitalAssets.bookId, purchases.bookId), eq(digitalAssets.format, purchases.format)))
    .where(entitledPurchase(sql.placeholder('purchaseId'), sql.placeholder('userId')))
    .limit(1)
    .prepare('entitled_file'),
);

/**
 * What a download link grants, in one read of the database: the purchase if it still entitles its holder,
 * its book's title and release date, and its format's asset. The signed download route asks this on every
 * transfer, and each read more would keep nginx from sending the first byte for another round trip.
 */
export async function openEntitledFile(deps: AppDeps, grant: { purchaseId: number; userId: number }, now: Date): Promise<EntitledFileResult> {
  const [row] = await entitledFileQuery(deps.database.db).execute({ purchaseId: grant.purchaseId, userId: grant.userId });
  if (!row) return { ok: false, reason: 'not-entitled' };
  const release = releaseStateOf(row.releaseAt, now);
  if (!release.released) return { ok: false, reason: 'not-released', availableAt: release.availableAt };
  if (!row.asset) return { ok: false, reason: 'no-asset' };
  return openAssetFor(deps, { id: row.id, userId: grant.userId, bookId: row.bookId, format: row.format }, row.asset, row.title);
}

/** The purchase's file from its format's asset: the buyer's personal copy, or the master for an audiobook. */
async function openAssetFor(deps: AppDeps, purchase: OwnedPurchase, asset: AssetRow, title: string): Promise<OwnedFileResult> {
  const stored = await deps.files.stat(asset.fileUrl);
  if (!stored) return { ok: false, reason: 'missing-file', key: asset.fileUrl };
  const fileName = readerFileName(title, asset.format, asset.fileName);
  const about = { assetId: asset.id, format: asset.format, contentType: asset.contentType, fileName };
  if (isPersonalised(asset.format)) {
    const copy = await personalCopy(
      { db: deps.database.db, files: deps.files, random: deps.random, clock: deps.clock },
      { id: purchase.id, userId: purchase.userId, format: asset.format },
      asset,
    ).catch((error: unknown) => {
      // A master stored before the zip limits that breaks them (an EPUB or a PDF's streams, see PdfRefused), or
      // a damaged EPUB, is the operator's problem.
      if (error instanceof ZipRefused || error instanceof ZipDamaged) return null;
      throw error;
    });
    if (!copy) return { ok: false, reason: 'unreadable-file', key: asset.fileUrl };
    const file = { ...about, size: copy.size, etag: `"${copy.sha256.slice(0, 32)}"`, lastModified: copy.builtAt, key: copy.fileKey };
    return { ok: true, file: { ...file, read: (range) => deps.files.read(copy.fileKey, range) } };
  }
  return { ok: true, file: masterFile(deps, about, asset, stored.size) };
}

function masterFile(deps: AppDeps, about: Omit<OwnedFile, 'size' | 'etag' | 'lastModified' | 'key' | 'read'>, asset: AssetRow, size: number): OwnedFile {
  const etag = `"${asset.id}-${asset.updatedAt.getTime()}-${size}"`;
  return { ...about, size, etag, lastModified: asset.updatedAt, key: asset.fileUrl, read: (range) => deps.files.read(asset.fileUrl, range) };
}

/**
 * The master file itself, unmarked: what the author reads and listens to in the reading room to check
 * their own book without buying it. Never offered as a download.
 */
export async function openMasterFile(deps: AppDeps, bookId: number, format: string): Promise<OwnedFileResult> {
  const asset = await findAsset(deps.database.db, { bookId, format });
  if (!asset) return { ok: false, reason: 'no-asset' };
  const stored = await deps.files.stat(asset.fileUrl);
  if (!stored) return { ok: false, reason: 'missing-file', key: asset.fileUrl };
  const book = await getBook(deps.database.db, bookId);
  const about = { assetId: asset.id, format: asset.format, contentType: asset.contentType, fileName: readerFileName(book?.title ?? '', asset.format, asset.fileName) };
  return { ok: true, file: masterFile(deps, about, asset, stored.size) };
}
