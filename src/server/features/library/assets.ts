/** A book's digital files as the database lists them, and their answer shape (docs/PRODUCT.md, Data). */
import { and, eq, inArray } from 'drizzle-orm';
import type { DigitalAsset } from '@shared/schemas/library';
import type { DbOrTx } from '../../db/client';
import { digitalAssets } from '../../db/schema';

export type AssetRow = typeof digitalAssets.$inferSelect;

export async function findAsset(db: DbOrTx, where: { id: number } | { bookId: number; format: string }) {
  const [row] = await db
    .select()
    .from(digitalAssets)
    .where(
      'id' in where
        ? eq(digitalAssets.id, where.id)
        : and(eq(digitalAssets.bookId, where.bookId), eq(digitalAssets.format, where.format)),
    )
    .limit(1);
  return row ?? null;
}

export function toAssetAnswer(row: AssetRow): DigitalAsset {
  return {
    id: row.id,
    bookId: row.bookId,
    format: row.format as DigitalAsset['format'],
    fileName: row.fileName,
    fileSizeKb: row.fileSizeKb,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The formats each of these books has a file for: what a bought format can be downloaded or read from. */
export async function uploadedFormats(db: DbOrTx, bookIds: number[]): Promise<Map<number, Set<string>>> {
  const byBook = new Map<number, Set<string>>();
  if (bookIds.length === 0) return byBook;
  const rows = await db
    .selectDistinct({ bookId: digitalAssets.bookId, format: digitalAssets.format })
    .from(digitalAssets)
    .where(inArray(digitalAssets.bookId, [...new Set(bookIds)]));
  for (const row of rows) byBook.set(row.bookId, (byBook.get(row.bookId) ?? new Set()).add(row.format));
  return byBook;
}
