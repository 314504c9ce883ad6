import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dbId, errorSchema } from '@shared/schemas/common';
import { FEED_MESSAGES, opdsEnabledSchema, opdsStateSchema } from '@shared/schemas/feeds';
import { FILE_NOT_READY_MESSAGE } from '@shared/schemas/library';
import { attachmentDisposition, findEntitledPurchase, openOwnedFile, sendOwnedFile } from '../library/service';
import { releaseState } from '../pre-orders/service';
import { AUTHOR } from '../catalogue/service';
import {
  catalogueBooks,
  catalogueState,
  disableCatalogue,
  enableCatalogue,
  readerByPassword,
  readerByToken,
  readerName,
} from './service';
import { OPDS_ACQUISITION_TYPE, opdsFeed } from './opds-atom';
import { requireUser } from '../../platform/security/sessions';

/** What reading apps answer a Basic challenge with; the realm names the site's library. */
const CHALLENGE = 'Basic realm="Your library", charset="UTF-8"';
const BASIC_ROOT = '/files/opds/catalog';

const tokenParams = z.object({ token: z.string().max(200) });
const tokenBookParams = z.object({ token: z.string().max(200), purchaseId: dbId() });
const bookParams = z.object({ purchaseId: dbId() });

function parseBasic(header: string | undefined): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The library in a reading app (decision 0087). The reader turns the catalogue on in Account Details,
 * regenerates or turns it off there; reading apps then read `/files/opds/t/<token>` or, with HTTP Basic
 * (user name or email and the app password), `/files/opds/catalog`. Acquisition links stream the reader's
 * own personal copy; nothing here spends the download.
 */
export const opdsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const absolute = (path: string) => new URL(path, app.deps.config.publicUrl).toString();
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

  const stateAnswer = (state: { enabled: boolean; token: string | null; username: string }) => ({
    enabled: state.enabled,
    catalogueUrl: state.token ? absolute(`/files/opds/t/${state.token}`) : null,
    basicUrl: absolute(BASIC_ROOT),
    username: state.username,
  });

  app.get(
    '/api/library/opds',
    {
      preHandler: app.requireUser,
      schema: { tags: ['library'], summary: "Whether the caller's reading-app (OPDS) catalogue is on, and its addresses", response: { 200: opdsStateSchema, 401: errorSchema } },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return stateAnswer(await catalogueState(app.deps, requireUser(request).userId));
    },
  );

  for (const [url, message, summary] of [
    ['/api/library/opds', FEED_MESSAGES.opdsOn, 'Turn the reading-app catalogue on (or renew it): a token address and an app password, shown once'],
    ['/api/library/opds/regenerate', FEED_MESSAGES.opdsRegenerated, 'A new catalogue address and app password; the old ones stop at once'],
  ] as const) {
    app.post(
      url,
      {
        preHandler: app.requireUser,
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: { tags: ['library'], summary, response: { 200: opdsEnabledSchema, ...errors } },
      },
      async (request, reply) => {
        const state = await enableCatalogue(app.deps, requireUser(request).userId);
        reply.header('Cache-Control', 'private, no-store');
        return { ...stateAnswer(state), password: state.password, message };
      },
    );
  }

  app.delete(
    '/api/library/opds',
    {
      preHandler: app.requireUser,
      schema: { tags: ['library'], summary: 'Turn the reading-app catalogue off: its address and password stop at once', response: { 200: opdsStateSchema, ...errors } },
    },
    async (request, reply) => {
      await disableCatalogue(db, requireUser(request).userId);
      reply.header('Cache-Control', 'private, no-store');
      return { ...stateAnswer(await catalogueState(app.deps, requireUser(request).userId)), message: FEED_MESSAGES.opdsOff };
    },
  );

  /** The reader HTTP Basic names, or the 401 challenge reading apps answer with a password prompt. */
  async function basicReader(request: FastifyRequest, reply: FastifyReply): Promise<number | null> {
    const credentials = parseBasic(request.headers.authorization);
    const userId = credentials ? await readerByPassword(app.deps, credentials.login, credentials.password) : null;
    if (userId === null) {
      reply.header('WWW-Authenticate', CHALLENGE);
      reply.header('Cache-Control', 'private, no-store');
      reply.status(401).send({ message: FEED_MESSAGES.opdsUnauthorized, code: 'UNAUTHENTICATED' });
    }
    return userId;
  }

  async function sendCatalogue(reply: FastifyReply, userId: number, base: string) {
    const books = await catalogueBooks(app.deps, userId);
    const xml = opdsFeed({
      feedId: `urn:library:${app.deps.config.publicUrl.host}:reader:${userId}`,
      title: `${await readerName(db, userId)}'s library`,
      author: AUTHOR,
      siteUrl: absolute('/'),
      selfUrl: absolute(base),
      updated: books.length ? new Date(Math.max(...books.map((b) => new Date(b.purchaseDate).getTime()))) : app.deps.clock.now(),
      books,
      coverUrl: absolute,
      acquisitionUrl: (purchaseId) => absolute(`${base}/books/${purchaseId}`),
    });
    reply.header('Cache-Control', 'private, no-store');
    reply.header('X-Robots-Tag', 'noindex');
    reply.header('Referrer-Policy', 'no-referrer');
    return reply.type(`${OPDS_ACQUISITION_TYPE};charset=utf-8`).send(xml);
  }

  /** The reader's own copy of one of their purchases: the personal EPUB or PDF the download gives. */
  async function sendCopy(request: FastifyRequest, reply: FastifyReply, userId: number, purchaseId: number) {
    const purchase = await findEntitledPurchase(db, purchaseId, userId);
    const refuse = (status: number, message: string, code: string) => {
      reply.header('Cache-Control', 'private, no-store');
      return reply.status(status).send({ message, code });
    };
    if (!purchase || (purchase.format !== 'ebook' && purchase.format !== 'pdf')) return refuse(404, 'This book is not in your library.', 'NOT_FOUND');
    const release = await releaseState(db, purchase.bookId, app.deps.clock.now());
    if (!release.released) return refuse(403, 'This book is not released yet.', 'NOT_RELEASED');
    const opened = await openOwnedFile(app.deps, { ...purchase, userId }, purchase.format);
    if (!opened.ok) {
      if (opened.reason !== 'no-asset') request.log.error({ key: opened.key, reason: opened.reason }, 'owned file cannot be opened for the OPDS catalogue');
      return refuse(404, FILE_NOT_READY_MESSAGE, 'NOT_FOUND');
    }
    reply.header('Content-Disposition', attachmentDisposition(opened.file.fileName));
    reply.header('Cache-Control', 'private, no-store');
    return sendOwnedFile(request, reply, opened.file);
  }

  const limits = { rateLimit: { max: 120, timeWindow: '1 minute' } };
  const unknownCatalogue = (reply: FastifyReply) => {
    reply.header('Cache-Control', 'private, no-store');
    return reply.status(404).send({ message: 'There is no catalogue at this address.', code: 'NOT_FOUND' });
  };

  app.get(BASIC_ROOT, { config: limits, schema: { hide: true } }, async (request, reply) => {
    const userId = await basicReader(request, reply);
    if (userId === null) return reply;
    return sendCatalogue(reply, userId, BASIC_ROOT);
  });

  app.get(`${BASIC_ROOT}/books/:purchaseId`, { config: limits, schema: { hide: true, params: bookParams } }, async (request, reply) => {
    const userId = await basicReader(request, reply);
    if (userId === null) return reply;
    return sendCopy(request, reply, userId, request.params.purchaseId);
  });

  app.get('/files/opds/t/:token', { config: limits, schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const userId = await readerByToken(app.deps, request.params.token);
    if (userId === null) return unknownCatalogue(reply);
    return sendCatalogue(reply, userId, `/files/opds/t/${request.params.token}`);
  });

  app.get('/files/opds/t/:token/books/:purchaseId', { config: limits, schema: { hide: true, params: tokenBookParams } }, async (request, reply) => {
    const userId = await readerByToken(app.deps, request.params.token);
    if (userId === null) return unknownCatalogue(reply);
    return sendCopy(request, reply, userId, request.params.purchaseId);
  });
};
