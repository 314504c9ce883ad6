import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '@shared/schemas/common';
import { FEED_MESSAGES, feedLinkSchema, flaggedFeedsSchema } from '@shared/schemas/feeds';
import { FILE_NOT_READY_MESSAGE, bookIdParams } from '@shared/schemas/library';
import { forbidden, notFound } from '../../platform/http/errors';
import { sendOwnedFile } from '../library/service';
import { assertReleased } from '../pre-orders/service';
import { AUTHOR } from '../catalogue/service';
import {
  EPISODE_LINK_TTL_MS,
  createEpisodeToken,
  episodeFile,
  episodesOf,
  feedBook,
  feedOfEpisode,
  feedToken,
  flaggedFeeds,
  liveFeed,
  noteFetchAddress,
  ownedAudiobook,
  regenerateFeed,
  resolveFeed,
  verifyEpisodeToken,
} from './service';
import { podcastRss } from './podcast-rss';
import { opdsRoutes } from './opds-routes';
import { FILE_CONTENT_POLICY } from '../../platform/security/security';
import { requireUser } from '../../platform/security/sessions';

const tokenParams = z.object({ token: z.string().max(200) });
const episodeParams = z.object({ token: z.string().max(200), episode: z.string().regex(/^\d{1,4}(\.(mp3|m4a))?$/) });

/** A refusal a podcast app can act on: 410 tells it to stop asking, 404 that nothing is there. */
function refuse(reply: FastifyReply, status: 404 | 410 | 403, message: string, code: string) {
  reply.header('Cache-Control', 'private, no-store');
  return reply.status(status).send({ message, code });
}

/**
 * The audiobook in a podcast app (decision 0086). The owner asks for the address in the library; the
 * podcast app then fetches the feed and its episodes with nothing but the address, so those answers are
 * `private` and never stored by a shared cache, and nothing they do touches the download allowance.
 */
export const feedRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
  const absolute = (path: string) => new URL(path, app.deps.config.publicUrl).toString();

  async function ownerOf(request: FastifyRequest, bookId: number) {
    if (!(await ownedAudiobook(db, requireUser(request).userId, bookId))) throw forbidden('You have not purchased this format');
    await assertReleased(db, bookId, app.deps.clock.now());
    if (!(await episodesOf(app.deps, bookId))) throw notFound(FILE_NOT_READY_MESSAGE);
  }

  app.get(
    '/api/library/:bookId/audiobook/feed-link',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['library'],
        summary: "The caller's private podcast feed address of an audiobook they own (made on first ask)",
        params: bookIdParams,
        response: { 200: feedLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { bookId } = request.params;
      await ownerOf(request, bookId);
      const feed = await liveFeed(app.deps, requireUser(request).userId, bookId);
      reply.header('Cache-Control', 'private, no-store');
      return { success: true as const, feedUrl: absolute(`/files/podcast/${feedToken(app.deps.secret, feed)}`), message: FEED_MESSAGES.feedReady };
    },
  );

  app.post(
    '/api/library/:bookId/audiobook/feed-link/regenerate',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['library'],
        summary: 'A new private feed address; the old one answers 410 from now on',
        params: bookIdParams,
        response: { 200: feedLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { bookId } = request.params;
      await ownerOf(request, bookId);
      const feed = await regenerateFeed(app.deps, requireUser(request).userId, bookId);
      reply.header('Cache-Control', 'private, no-store');
      return { success: true as const, feedUrl: absolute(`/files/podcast/${feedToken(app.deps.secret, feed)}`), message: FEED_MESSAGES.feedRegenerated };
    },
  );

  app.get(
    '/files/podcast/:token',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { hide: true, params: tokenParams },
    },
    async (request, reply) => {
      const access = await resolveFeed(app.deps, request.params.token);
      if (!access.ok) {
        return access.status === 410
          ? refuse(reply, 410, FEED_MESSAGES.feedGone, 'FEED_GONE')
          : refuse(reply, 404, FEED_MESSAGES.feedUnknown, 'FEED_NOT_FOUND');
      }
      await noteFetchAddress(app.deps, access.feed, request.ip);
      const [book, episodes] = await Promise.all([feedBook(db, access.feed.bookId), episodesOf(app.deps, access.feed.bookId)]);
      if (!book || !episodes) return refuse(reply, 404, FILE_NOT_READY_MESSAGE, 'NOT_FOUND');
      const token = request.params.token;
      const xml = podcastRss({
        book,
        author: AUTHOR,
        episodes,
        enclosureUrl: (episode) => absolute(`/files/podcast/${token}/${episode.number}.${episode.extension}`),
        siteUrl: absolute(`/listen/${book.id}`),
        coverUrl: absolute(book.coverImage),
        createdAt: access.feed.createdAt,
        guidPrefix: `audiobook-${book.id}-${episodes[0].assetId}`,
      });
      reply.header('Cache-Control', 'private');
      reply.header('X-Robots-Tag', 'noindex');
      reply.header('Referrer-Policy', 'no-referrer');
      return reply.type('application/rss+xml; charset=utf-8').send(xml);
    },
  );

  // The enclosure address stays put while the feed lives; it hands out a short-lived signed link.
  app.route<{ Params: z.infer<typeof episodeParams> }>({
    method: ['GET', 'HEAD'],
    url: '/files/podcast/:token/:episode',
    exposeHeadRoute: false,
    config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
    schema: { hide: true, params: episodeParams },
    handler: async (request, reply) => {
      const access = await resolveFeed(app.deps, request.params.token);
      if (!access.ok) {
        return access.status === 410
          ? refuse(reply, 410, FEED_MESSAGES.feedGone, 'FEED_GONE')
          : refuse(reply, 404, FEED_MESSAGES.feedUnknown, 'FEED_NOT_FOUND');
      }
      await noteFetchAddress(app.deps, access.feed, request.ip);
      const number = Number.parseInt(request.params.episode, 10);
      const episodes = (await episodesOf(app.deps, access.feed.bookId)) ?? [];
      const episode = episodes.find((e) => e.number === number);
      if (!episode) return refuse(reply, 404, FEED_MESSAGES.feedUnknown, 'EPISODE_NOT_FOUND');
      const link = createEpisodeToken(app.deps.secret, {
        feedId: access.feed.id,
        episode: number,
        assetId: episode.assetId,
        expiresAt: app.deps.clock.now().getTime() + EPISODE_LINK_TTL_MS,
      });
      reply.header('Cache-Control', 'private, no-store');
      return reply.redirect(`/files/episode/${link}/${number}.${episode.extension}`, 302);
    },
  });

  app.route<{ Params: z.infer<typeof episodeParams> }>({
    method: ['GET', 'HEAD'],
    url: '/files/episode/:token/:episode',
    exposeHeadRoute: false,
    config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
    schema: { hide: true, params: episodeParams },
    handler: async (request, reply) => {
      const check = verifyEpisodeToken(app.deps.secret, request.params.token, app.deps.clock.now());
      if (!check.ok) {
        return check.reason === 'expired'
          ? refuse(reply, 410, FEED_MESSAGES.episodeExpired, 'LINK_EXPIRED')
          : refuse(reply, 403, 'This episode link is not valid.', 'LINK_INVALID');
      }
      const { grant } = check;
      const access = await feedOfEpisode(app.deps, grant.feedId);
      if (!access.ok) return refuse(reply, access.status === 410 ? 410 : 404, FEED_MESSAGES.feedGone, 'FEED_GONE');
      await noteFetchAddress(app.deps, access.feed, request.ip);
      const episodes = (await episodesOf(app.deps, access.feed.bookId)) ?? [];
      const episode = episodes.find((e) => e.number === grant.episode && e.assetId === grant.assetId);
      // The author replaced the file since the link was made: the feed has new episodes to fetch.
      if (!episode) return refuse(reply, 410, FEED_MESSAGES.episodeExpired, 'LINK_EXPIRED');
      const file = await episodeFile(app.deps, access.feed.bookId, episode);
      if (!file) return refuse(reply, 404, FILE_NOT_READY_MESSAGE, 'NOT_FOUND');
      reply.header('Cache-Control', 'private');
      reply.header('Content-Disposition', 'inline');
      reply.header('Content-Security-Policy', FILE_CONTENT_POLICY);
      return sendOwnedFile(request, reply, file);
    },
  });

  await app.register(opdsRoutes);
};

/** The author's view of feeds fetched from more addresses than a household uses (inside the admin guard). */
export const adminFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/audiobook-feeds/flagged',
    {
      schema: {
        tags: ['admin'],
        summary: 'Private podcast feeds fetched from more distinct addresses in a day than a household uses',
        response: { 200: flaggedFeedsSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async () => ({ feeds: await flaggedFeeds(app.deps.database.db) }),
  );
};
