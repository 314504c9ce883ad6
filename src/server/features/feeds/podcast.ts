/**
 * The audiobook in a podcast app (decision 0086): one private feed address per owner and book, one episode
 * per chapter, each episode's enclosure a slice of the master answered with Range through a short-lived
 * signed link. Listening this way streams the owner's file like the web player does: it never spends the
 * download allowance or writes a download transfer.
 */
import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Book } from '@shared/schemas/books';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { audiobookFeedAddresses, audiobookFeeds, books, users } from '../../db/schema';
import { hmac, safeEqual } from '../../platform/security/crypto';
import type { ByteRange } from '../../platform/storage/files';
import { getBook } from '../books/service';
import { findAsset, findOwnedPurchase } from '../library/service';
import { chaptersOf } from '../reading/service';
import { chapterBytes } from './mp3-frames';

/** More distinct addresses than this in one UTC day is more than a household (phones, home, work, a car). */
export const FEED_ADDRESS_LIMIT = 12;
/** An episode's signed link lives this long: enough to start and resume a transfer, too short to pass on. */
export const EPISODE_LINK_TTL_MS = 60 * 60 * 1000;

type FeedRow = typeof audiobookFeeds.$inferSelect;

const feedSignature = (secret: string, row: Pick<FeedRow, 'id' | 'nonce'>) => hmac(secret, `podcast-feed:${row.id}:${row.nonce}`);

/** `<id>-<signature>`: the id finds the row, the signature (of a nonce only the row knows) proves it. */
export const feedToken = (secret: string, row: Pick<FeedRow, 'id' | 'nonce'>) => `${row.id}-${feedSignature(secret, row)}`;

/** The reader's live feed of this book, made on first ask. */
export async function liveFeed(deps: AppDeps, userId: number, bookId: number): Promise<FeedRow> {
  const { db } = deps.database;
  const find = () =>
    db.select().from(audiobookFeeds).where(and(eq(audiobookFeeds.userId, userId), eq(audiobookFeeds.bookId, bookId), isNull(audiobookFeeds.retiredAt))).limit(1);
  const [existing] = await find();
  if (existing) return existing;
  // Two first asks racing: the partial unique index lets one insert; the other reads the winner's row.
  const [made] = await db.insert(audiobookFeeds).values({ userId, bookId, nonce: deps.random.token(24) }).onConflictDoNothing().returning();
  return made ?? (await find())[0];
}

/** Retires the live feed (its address then answers 410) and makes a new one. */
export async function regenerateFeed(deps: AppDeps, userId: number, bookId: number): Promise<FeedRow> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    await tx
      .update(audiobookFeeds)
      .set({ retiredAt: now })
      .where(and(eq(audiobookFeeds.userId, userId), eq(audiobookFeeds.bookId, bookId), isNull(audiobookFeeds.retiredAt)));
    const [made] = await tx.insert(audiobookFeeds).values({ userId, bookId, nonce: deps.random.token(24) }).returning();
    return made;
  });
}

export type FeedAccess =
  | { ok: true; feed: FeedRow; purchase: { id: number; userId: number; bookId: number; format: string } }
  | { ok: false; status: 404 | 410 };

/** What a feed address is worth now: unknown (404), retired or no longer owned, e.g. refunded (410), or live. */
export async function resolveFeed(deps: AppDeps, token: string): Promise<FeedAccess> {
  const match = /^(\d{1,10})-([\w-]{20,64})$/.exec(token);
  if (!match) return { ok: false, status: 404 };
  const [row] = await deps.database.db.select().from(audiobookFeeds).where(eq(audiobookFeeds.id, Number(match[1]))).limit(1);
  if (!row || !safeEqual(match[2], feedSignature(deps.secret, row))) return { ok: false, status: 404 };
  if (row.retiredAt) return { ok: false, status: 410 };
  const purchase = await findOwnedPurchase(deps.database.db, row.userId, row.bookId, 'audiobook');
  if (!purchase) return { ok: false, status: 410 };
  return { ok: true, feed: row, purchase };
}

/**
 * Counts the address a fetch came from (a keyed hash, so no address is stored) for the feed's day, and
 * flags the feed the first time the day's count goes past a household's.
 */
export async function noteFetchAddress(deps: AppDeps, feed: FeedRow, address: string): Promise<void> {
  const { db } = deps.database;
  const day = deps.clock.now().toISOString().slice(0, 10);
  const inserted = await db
    .insert(audiobookFeedAddresses)
    .values({ feedId: feed.id, day, addressHash: hmac(deps.secret, `feed-address:${address}`) })
    .onConflictDoNothing()
    .returning({ feedId: audiobookFeedAddresses.feedId });
  if (inserted.length === 0 || feed.flaggedAt) return;
  const [{ n }] = await db
    .select({ n: count() })
    .from(audiobookFeedAddresses)
    .where(and(eq(audiobookFeedAddresses.feedId, feed.id), eq(audiobookFeedAddresses.day, day)));
  if (n > FEED_ADDRESS_LIMIT) {
    await db
      .update(audiobookFeeds)
      .set({ flaggedAt: deps.clock.now(), flaggedAddresses: n })
      .where(and(eq(audiobookFeeds.id, feed.id), isNull(audiobookFeeds.flaggedAt)));
  }
}

export interface Episode {
  number: number;
  title: string;
  /** Seconds. */
  duration: number | null;
  /** The bytes of the master the episode is; the whole file when it cannot be cut. */
  bytes: ByteRange;
  contentType: string;
  assetId: number;
  extension: string;
}

/** Chapter cuts per version of a master file: walking a long MP3 once per version is enough. */
const cutsCache = new Map<string, Promise<Awaited<ReturnType<typeof chapterBytes>>>>();

/**
 * The book's episodes: one per chapter mark. An MP3 master is cut at the frame where each chapter starts;
 * an MP4 master cannot be cut without re-muxing, so it is one episode (the whole book, chapters inside).
 */
export async function episodesOf(deps: AppDeps, bookId: number): Promise<Episode[] | null> {
  const asset = await findAsset(deps.database.db, { bookId, format: 'audiobook' });
  const marks = asset ? await chaptersOf(deps, bookId) : null;
  const stored = asset ? await deps.files.stat(asset.fileUrl) : null;
  if (!asset || !marks || !stored) return null;
  const whole = (title: string): Episode[] => [
    { number: 1, title, duration: marks.duration, bytes: { start: 0, end: stored.size - 1 }, contentType: asset.contentType, assetId: asset.id, extension: 'm4a' },
  ];
  if (asset.contentType !== 'audio/mpeg') return whole((await getBook(deps.database.db, bookId))?.title ?? 'Audiobook');
  const tag = `${asset.id}:${asset.updatedAt.getTime()}:${stored.size}`;
  let cuts = cutsCache.get(tag);
  if (!cuts) {
    const starts = marks.chapters.map((c, i) => (i === 0 ? 0 : c.start));
    cuts = deps.files.read(asset.fileUrl).then((stream) => chapterBytes(stream, starts).finally(() => stream.destroy()));
    cutsCache.set(tag, cuts);
    if (cutsCache.size > 32) cutsCache.delete(cutsCache.keys().next().value!);
    cuts.catch(() => cutsCache.delete(tag));
  }
  const slices = await cuts;
  if (!slices) return whole(marks.chapters[0]?.title ?? 'Audiobook');
  return slices.map((slice, i) => ({
    number: i + 1,
    title: marks.chapters[i].title,
    duration: Math.round(slice.duration),
    bytes: { start: slice.start, end: slice.end },
    contentType: 'audio/mpeg',
    assetId: asset.id,
    extension: 'mp3',
  }));
}

/** The payload of an episode's signed link: which feed, which episode of which file version, until when. */
export interface EpisodeGrant {
  feedId: number;
  episode: number;
  assetId: number;
  expiresAt: number;
}

const signEpisode = (secret: string, payload: string) => hmac(secret, `podcast-episode:${payload}`);

export function createEpisodeToken(secret: string, grant: EpisodeGrant): string {
  const payload = `${grant.feedId}.${grant.episode}.${grant.assetId}.${grant.expiresAt}`;
  return `${payload.replaceAll('.', '-')}-${signEpisode(secret, payload)}`;
}

export function verifyEpisodeToken(secret: string, token: string, now: Date): { ok: true; grant: EpisodeGrant } | { ok: false; reason: 'invalid' | 'expired' } {
  const match = /^(\d{1,10})-(\d{1,4})-(\d{1,10})-(\d{13})-([\w-]{20,64})$/.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, feedId, episode, assetId, expiresAt, signature] = match;
  if (!safeEqual(signature, signEpisode(secret, `${feedId}.${episode}.${assetId}.${expiresAt}`))) return { ok: false, reason: 'invalid' };
  if (Number(expiresAt) <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, grant: { feedId: Number(feedId), episode: Number(episode), assetId: Number(assetId), expiresAt: Number(expiresAt) } };
}

/** The feed a signed episode link was issued from, if it is still live (not retired, still owned). */
export async function feedOfEpisode(deps: AppDeps, feedId: number): Promise<FeedAccess> {
  const [row] = await deps.database.db.select().from(audiobookFeeds).where(eq(audiobookFeeds.id, feedId)).limit(1);
  if (!row) return { ok: false, status: 404 };
  return resolveFeed(deps, feedToken(deps.secret, row));
}

export async function feedBook(db: DbOrTx, bookId: number): Promise<Book | null> {
  return getBook(db, bookId);
}

/** Feeds fetched from more addresses than a household uses, newest flag first: what the author sees. */
export async function flaggedFeeds(db: DbOrTx) {
  const rows = await db
    .select({
      id: audiobookFeeds.id,
      flaggedAt: audiobookFeeds.flaggedAt,
      addresses: audiobookFeeds.flaggedAddresses,
      retiredAt: audiobookFeeds.retiredAt,
      bookTitle: books.title,
      userId: users.id,
      username: users.username,
      email: users.email,
    })
    .from(audiobookFeeds)
    .innerJoin(books, eq(books.id, audiobookFeeds.bookId))
    .innerJoin(users, eq(users.id, audiobookFeeds.userId))
    .where(isNotNull(audiobookFeeds.flaggedAt))
    .orderBy(desc(audiobookFeeds.flaggedAt))
    .limit(200);
  return rows.map((r) => ({
    ...r,
    flaggedAt: r.flaggedAt!.toISOString(),
    addresses: r.addresses ?? 0,
    retiredAt: r.retiredAt?.toISOString() ?? null,
  }));
}
