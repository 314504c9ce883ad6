/** The private feeds of a reader's books: the audiobook as a podcast (0086) and the library over OPDS (0087). */
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { findAsset, findOwnedPurchase, type sendOwnedFile } from '../library/service';
import type { Episode } from './podcast';

export * from './podcast';

type StreamedFile = Parameters<typeof sendOwnedFile>[2];

/** Whether the reader owns the audiobook of this book (a completed, unrefunded purchase of an owned kind). */
export async function ownedAudiobook(db: DbOrTx, userId: number, bookId: number): Promise<boolean> {
  return (await findOwnedPurchase(db, userId, bookId, 'audiobook')) !== null;
}

/** One episode as a file of its own: the slice of the master, streamed whole or in ranges. */
export async function episodeFile(deps: AppDeps, bookId: number, episode: Episode): Promise<StreamedFile | null> {
  const asset = await findAsset(deps.database.db, { bookId, format: 'audiobook' });
  if (!asset || asset.id !== episode.assetId) return null;
  const { start, end } = episode.bytes;
  return {
    assetId: asset.id,
    format: 'audiobook',
    contentType: episode.contentType,
    fileName: `${episode.number}.${episode.extension}`,
    size: end - start + 1,
    etag: `"${asset.id}-${asset.updatedAt.getTime()}-${episode.number}-${start}-${end}"`,
    lastModified: asset.updatedAt,
    key: asset.fileUrl,
    slice: { start, end },
    read: (range) => deps.files.read(asset.fileUrl, range ? { start: start + range.start, end: start + range.end } : { start, end }),
  };
}

export * from './opds';
