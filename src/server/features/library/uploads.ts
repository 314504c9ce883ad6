import { and, asc, eq } from 'drizzle-orm';
import type { DigitalFormat } from '@shared/constants';
import type { AdminAsset } from '@shared/schemas/admin';
import type { Db, DbOrTx } from '../../db/client';
import { books, digitalAssets } from '../../db/schema';
import type { FileStore } from '../../platform/storage/files';
import { notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';
import { isSeededSample } from './sample-files';

/** '1.0' -> '2.0': every replacement is a new major version the buyer can tell apart. */
export function nextVersion(version: string): string {
  const major = Number.parseInt(version, 10);
  return `${Number.isFinite(major) && major > 0 ? major + 1 : 2}.0`;
}

const assetColumns = {
  id: digitalAssets.id,
  bookId: digitalAssets.bookId,
  bookTitle: books.title,
  format: digitalAssets.format,
  fileName: digitalAssets.fileName,
  contentType: digitalAssets.contentType,
  fileSizeKb: digitalAssets.fileSizeKb,
  version: digitalAssets.version,
  updatedAt: digitalAssets.updatedAt,
};
type AssetRow = { updatedAt: Date; format: string } & Omit<AdminAsset, 'updatedAt' | 'format' | 'sample'>;
const toAsset = (r: AssetRow, sample = false): AdminAsset => ({
  ...r,
  format: r.format as DigitalFormat,
  updatedAt: r.updatedAt.toISOString(),
  sample,
});

/** Every digital file, each saying whether it is still the seeded sample. */
export async function listAdminFiles(db: DbOrTx, files: FileStore): Promise<AdminAsset[]> {
  const rows = await db
    .select({ ...assetColumns, fileUrl: digitalAssets.fileUrl })
    .from(digitalAssets)
    .innerJoin(books, eq(books.id, digitalAssets.bookId))
    .orderBy(asc(digitalAssets.bookId), asc(digitalAssets.format));
  return Promise.all(rows.map(async ({ fileUrl, ...row }) => toAsset(row, await isSeededSample(files, { ...row, fileUrl }))));
}

export async function requireBook(db: DbOrTx, bookId: number): Promise<void> {
  const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, bookId));
  if (!book) throw notFound('Book not found');
}

export interface StoredUpload {
  bookId: number;
  format: DigitalFormat;
  /** Where the file store holds the new bytes. */
  key: string;
  fileName: string;
  contentType: string;
  bytes: number;
}

/**
 * Points the book's file of this format at the stored upload: a replacement updates the same
 * digital_assets row (so every past buyer's purchase now leads to the new file) under a new version.
 * Answers the key of the bytes no row refers to any more, for the caller to remove.
 */
export async function recordUpload(
  db: Db,
  upload: StoredUpload,
  actorId: ActorId,
  now: Date,
): Promise<{ asset: AdminAsset; created: boolean; previousKey: string | null }> {
  const { bookId, format, key, fileName, contentType, bytes } = upload;
  let previousKey: string | null = null;
  let created = false;
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format)))
      .for('update');
    const fields = { fileUrl: key, fileName, contentType, fileSizeKb: Math.ceil(bytes / 1024), updatedAt: now };
    if (existing) {
      previousKey = existing.fileUrl;
      const version = nextVersion(existing.version);
      await tx.update(digitalAssets).set({ ...fields, version }).where(eq(digitalAssets.id, existing.id));
      await audit(tx, actorId, { action: 'file.replace', targetType: 'digital_asset', targetId: existing.id, details: { bookId, format, fileName, bytes, version } }, now);
    } else {
      created = true;
      const [row] = await tx.insert(digitalAssets).values({ bookId, format, ...fields, createdAt: now }).returning({ id: digitalAssets.id });
      await audit(tx, actorId, { action: 'file.upload', targetType: 'digital_asset', targetId: row.id, details: { bookId, format, fileName, bytes } }, now);
    }
  });
  const [row] = await db
    .select(assetColumns)
    .from(digitalAssets)
    .innerJoin(books, eq(books.id, digitalAssets.bookId))
    .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format)));
  return { asset: toAsset(row), created, previousKey: previousKey === key ? null : previousKey };
}
