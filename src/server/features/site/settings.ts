import { isDeepStrictEqual } from 'node:util';
import type { SiteSettings } from '@shared/schemas/admin';
import type { SiteContent } from '@shared/schemas/site';
import type { Db, DbOrTx } from '../../db/client';
import { getSetting, setSetting } from '../../platform/operations/settings';
import { audit, type ActorId } from '../../platform/operations/audit';
import { getUpcomingBook, setTeaserVideo } from '../books/service';
import { asksToConfirm, setAsksToConfirm } from '../newsletter/service';

const CONTENT_KEY = 'site.content' as const;


type SettingsAnswer = SiteSettings & { askSubscribersToConfirm: boolean };

export async function readSiteSettings(db: DbOrTx): Promise<SettingsAnswer> {
  const content: Partial<SiteContent> = (await getSetting(db, CONTENT_KEY)) ?? {};
  const upcoming = await getUpcomingBook(db);
  return {
    authorName: content.authorName ?? '',
    authorBio: content.authorBio ?? [],
    publisher: { name: content.publisher?.name ?? '', url: content.publisher?.url ?? '' },
    agent: { name: content.agent?.name ?? '', agency: content.agent?.agency ?? '' },
    social: {
      x: content.social?.x ?? '',
      instagram: content.social?.instagram ?? '',
      facebook: content.social?.facebook ?? '',
      goodreads: content.social?.goodreads ?? '',
    },
    teaserVideoId: upcoming?.teaserVideoId ?? '',
    askSubscribersToConfirm: await asksToConfirm(db),
  };
}

/**
 * Site content the author edits instead of asking a developer: author name and bio, publisher, agent,
 * social links (site_settings 'site.content') and the teaser video of the upcoming book (its book row,
 * which is where the public site reads it).
 */
export async function saveSiteSettings(db: Db, settings: SiteSettings, actorId: ActorId, now: Date): Promise<SettingsAnswer> {
  const { teaserVideoId, askSubscribersToConfirm, ...edits } = settings;
  await db.transaction(async (tx) => {
    // The fields edited here sit beside others (hero, excerpt) that the seed wrote and are kept as they are.
    const current = await getSetting(tx, CONTENT_KEY);
    if (!current) throw new Error('site.content is missing: the database has not been seeded');
    await setSetting(tx, CONTENT_KEY, { ...current, ...edits });
    const upcoming = await getUpcomingBook(tx);
    const videoChanged = upcoming && (upcoming.teaserVideoId ?? '') !== teaserVideoId;
    if (videoChanged) {
      await setTeaserVideo(tx, upcoming.id, teaserVideoId || null, now);
    }
    const changed = Object.keys(edits).filter(
      // jsonb reorders object keys, so compare structurally rather than as text.
      (k) => !isDeepStrictEqual(current[k as keyof typeof edits], edits[k as keyof typeof edits]),
    );
    if (videoChanged) changed.push('teaserVideoId');
    // Kept under its own key: it is the newsletter's rule, not site content the public pages read.
    if (askSubscribersToConfirm !== undefined && askSubscribersToConfirm !== (await asksToConfirm(tx))) {
      await setAsksToConfirm(tx, askSubscribersToConfirm);
      changed.push('askSubscribersToConfirm');
    }
    await audit(tx, actorId, { action: 'settings.update', targetType: 'site_settings', targetId: CONTENT_KEY, details: { changed } }, now);
  });
  return readSiteSettings(db);
}
