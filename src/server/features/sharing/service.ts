import { POINTS, type SharePlatform } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { userActivities } from '../../db/schema';

export const PLATFORM_NAMES: Record<SharePlatform, string> = { x: 'X', facebook: 'Facebook', linkedin: 'LinkedIn' };

/** The UTC calendar day: "once per platform per day" is one day for every reader, wherever they are. */
export const shareDay = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Records a signed-in reader's share. The first share per platform per day earns POINTS.share; the
 * unique (user_id, dedupe_key) index decides, so two racing requests cannot both earn. Later shares
 * that day are still recorded as activity, without points.
 */
export async function recordShare(db: DbOrTx, userId: number, platform: SharePlatform, now: Date): Promise<number> {
  const awarded = await db
    .insert(userActivities)
    .values({
      userId,
      type: 'share',
      platform,
      points: POINTS.share,
      dedupeKey: `share:${platform}:${shareDay(now)}`,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: userActivities.id });
  if (awarded.length > 0) return POINTS.share;
  await db.insert(userActivities).values({ userId, type: 'share', platform, points: 0, createdAt: now });
  return 0;
}
