import type { Readable } from 'node:stream';
import type { AppDeps } from '../../app';
import type { ByteRange } from '../../platform/files';
import { isPersonalised, personalCopy } from '../copies/service';
import { findAsset } from './service';
import { safeFileName } from './download-link';

/** A purchase as the owned-file lookup needs it. */
export interface OwnedPurchase {
  id: number;
  userId: number;
  bookId: number;
  format: string;
  purchaseDate: Date;
  orderReference: string;
}

/** The bytes the owner of a purchase gets, with what an HTTP answer needs to serve them. */
export interface OwnedFile {
  key: string;
  size: number;
  contentType: string;
  /** ASCII, safe in a header. */
  fileName: string;
  /** Strong ETag (quoted): changes exactly when the bytes do. */
  etag: string;
  lastModified: Date;
  /** Whether these are the buyer's personal copy (ebook, PDF) or the master file (audiobook). */
  personal: boolean;
  read(range?: ByteRange): Promise<Readable>;
}

/**
 * THE way to get "the owner's copy of a purchased format": downloads, the reading room and Send to Kindle
 * all call this, so every path hands out the same bytes. Ebooks and PDFs are the buyer's personal copy
 * (built on first use, then kept); the audiobook is the master file, untouched. Null when the book has no
 * file for the format or the stored master is missing. The caller has checked the purchase belongs to the
 * user and is paid.
 */
export async function openOwnedFile(
  deps: Pick<AppDeps, 'database' | 'files' | 'random' | 'clock'>,
  purchase: OwnedPurchase,
  format: string = purchase.format,
): Promise<OwnedFile | null> {
  const { db } = deps.database;
  const asset = await findAsset(db, { bookId: purchase.bookId, format });
  if (!asset) return null;
  const master = await deps.files.stat(asset.fileUrl);
  if (!master) return null;
  const fileName = safeFileName(asset.fileName, `download.${asset.format}`);
  if (isPersonalised(format)) {
    const copy = await personalCopy({ db, files: deps.files, random: deps.random, clock: deps.clock }, { ...purchase, format }, asset);
    return {
      key: copy.fileKey,
      size: copy.size,
      contentType: asset.contentType,
      fileName,
      etag: `"${copy.sha256.slice(0, 32)}"`,
      lastModified: copy.builtAt,
      personal: true,
      read: (range) => deps.files.read(copy.fileKey, range),
    };
  }
  return {
    key: asset.fileUrl,
    size: master.size,
    contentType: asset.contentType,
    fileName,
    etag: `"${asset.id}-${asset.updatedAt.getTime()}-${master.size}"`,
    lastModified: asset.updatedAt,
    personal: false,
    read: (range) => deps.files.read(asset.fileUrl, range),
  };
}
