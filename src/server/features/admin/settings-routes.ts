import { isDeepStrictEqual } from 'node:util';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { siteSettingsAnswerSchema, siteSettingsSchema, type SiteSettings } from '@shared/schemas/admin';
import { errorSchema } from '@shared/schemas/common';
import type { DbOrTx } from '../../db/client';
import { books } from '../../db/schema';
import { getUpcomingBook } from '../books/service';
import { getSetting, setSetting } from '../../platform/settings';
import { actorOf, audit } from '../../platform/audit';

const refusals = { 401: errorSchema, 403: errorSchema };
const CONTENT_KEY = 'site.content';

/** The stored site content: the editable fields below plus others (hero, excerpt) kept as they are. */
type StoredContent = Omit<SiteSettings, 'teaserVideoId'> & Record<string, unknown>;

async function readSettings(db: DbOrTx): Promise<SiteSettings> {
  const content = (await getSetting<StoredContent>(db, CONTENT_KEY)) ?? ({} as StoredContent);
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
  };
}

/**
 * Site content the author edits instead of asking a developer: author name and bio, publisher, agent,
 * social links (site_settings 'site.content') and the teaser video of the upcoming book (its book row,
 * which is where the public site reads it).
 */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/settings',
    { schema: { tags: ['admin'], response: { 200: siteSettingsAnswerSchema, ...refusals } } },
    async () => readSettings(db),
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        body: siteSettingsSchema,
        response: { 200: siteSettingsAnswerSchema, 400: errorSchema, 404: errorSchema, ...refusals },
      },
    },
    async (request) => {
      const { teaserVideoId, ...edits } = request.body;
      const now = clock.now();
      await db.transaction(async (tx) => {
        const current = (await getSetting<StoredContent>(tx, CONTENT_KEY)) ?? ({} as StoredContent);
        const next = { ...current, ...edits };
        await setSetting(tx, CONTENT_KEY, next);
        const upcoming = await getUpcomingBook(tx);
        const videoChanged = upcoming && (upcoming.teaserVideoId ?? '') !== teaserVideoId;
        if (videoChanged) {
          await tx.update(books).set({ teaserVideoId: teaserVideoId || null, updatedAt: now }).where(eq(books.id, upcoming.id));
        }
        const changed = Object.keys(edits).filter(
          // jsonb reorders object keys, so compare structurally rather than as text.
          (k) => !isDeepStrictEqual(current[k], edits[k as keyof typeof edits]),
        );
        if (videoChanged) changed.push('teaserVideoId');
        await audit(tx, actorOf(request), { action: 'settings.update', targetType: 'site_settings', targetId: CONTENT_KEY, details: { changed } }, now);
      });
      return readSettings(db);
    },
  );
};
