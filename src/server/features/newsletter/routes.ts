import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { errorSchema, successMessageSchema } from '@shared/schemas/common';
import { subscribeAnswerSchema, subscribeSchema, unsubscribeQuerySchema } from '@shared/schemas/newsletter';
import { confirmSubscriptionAnswerSchema, confirmSubscriptionSchema } from '@shared/schemas/newsletter-confirm';
import { badRequest } from '../../platform/http/errors';
import { getSetting } from '../../platform/operations/settings';
import { CONFIRM_MESSAGES, confirmSubscription, subscribe, unsubscribe } from './service';
import { countUnsubscribe } from './broadcasts';
import { verifyUnsubscribeToken } from './unsubscribe-token';
import { defineBroadcastDelivery } from './broadcast-delivery';
import { unsubscribePage } from './unsubscribe-page';

/** Per IP: a household signing up, not a list being loaded. */
export const SUBSCRIBE_LIMIT = { max: 10, timeWindow: 10 * 60 * 1000 };

/** Routes of the newsletter domain (the Thriller Circle). */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  defineBroadcastDelivery(app.deps);

  // RFC 8058 one-click unsubscribe posts a small form body; it is not read, only accepted.
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, _body, done) => done(null, undefined),
  );

  app.post(
    '/api/subscribe',
    {
      config: { rateLimit: SUBSCRIBE_LIMIT },
      schema: {
        tags: ['newsletter'],
        summary: 'Join the newsletter; subscribing again is not an error',
        body: subscribeSchema,
        response: { 200: subscribeAnswerSchema, 400: errorSchema, 403: errorSchema, 429: errorSchema },
      },
    },
    async (request) => {
      const content = await getSetting(db, 'site.content');
      const result = await subscribe(
        {
          db,
          mailer: app.deps.mailer,
          publicUrl: app.deps.config.publicUrl,
          secret: app.deps.secret,
          siteTitle: content?.siteTitle ?? 'What We Owe the Dead',
          random: app.deps.random,
          now: app.deps.clock.now(),
        },
        request.body,
        request.auth?.userId ?? null,
      );
      const points = result.pointsEarned > 0 ? ` You earned ${result.pointsEarned} points.` : '';
      const message = result.subscribed
        ? `Welcome to the Thriller Circle! Check your inbox for a welcome email.${points}`
        : `You're already subscribed to the Thriller Circle.${points}`;
      return { message, pointsEarned: result.pointsEarned };
    },
  );

  // The button on /newsletter/confirm (decision 0069). Only this POST confirms: the link in the mail opens
  // a page, so a mail scanner following it changes nothing.
  app.post(
    '/api/newsletter/confirm',
    {
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ['newsletter'],
        summary: 'Confirm a subscription with the token from the welcome mail; again is harmless',
        body: confirmSubscriptionSchema,
        response: { 200: confirmSubscriptionAnswerSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const status = await confirmSubscription(db, request.body.token, app.deps.clock.now());
      return { status, message: CONFIRM_MESSAGES[status] };
    },
  );

  const checkToken = (email: string, token: string) => {
    if (!verifyUnsubscribeToken(app.deps.secret, email, token)) throw badRequest('This unsubscribe link is not valid');
  };

  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);

  // The link in the mail. Opening it changes nothing (scanners and prefetchers open links): it shows a
  // page whose button posts the same signed link.
  app.get(
    '/api/newsletter/unsubscribe',
    {
      schema: {
        tags: ['newsletter'],
        summary: 'The unsubscribe link from the mail: a confirmation page (HTML)',
        querystring: unsubscribeQuerySchema,
      },
    },
    async (request, reply) => {
      const { email, token, b } = request.query;
      const valid = verifyUnsubscribeToken(app.deps.secret, email, token);
      const action = `/api/newsletter/unsubscribe?${new URLSearchParams({ email, token, ...(b ? { b: String(b) } : {}) }).toString()}`;
      return sendPage(reply, valid ? 200 : 400, unsubscribePage(valid ? 'confirm' : 'invalid', app.deps.config.publicUrl, action));
    },
  );

  // The confirmation page's button, and List-Unsubscribe-Post (RFC 8058) from mail clients: the signed
  // link stands in for the CSRF token. A browser gets a page back, a mail client JSON.
  app.post(
    '/api/newsletter/unsubscribe',
    {
      config: { csrf: false, rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ['newsletter'],
        summary: 'RFC 8058 one-click unsubscribe',
        querystring: unsubscribeQuerySchema,
        response: { 200: successMessageSchema, 400: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const { email, token } = request.query;
      const wantsPage = (request.headers.accept ?? '').includes('text/html');
      if (wantsPage && !verifyUnsubscribeToken(app.deps.secret, email, token)) {
        return sendPage(reply, 400, unsubscribePage('invalid', app.deps.config.publicUrl));
      }
      checkToken(email, token);
      const left = await unsubscribe(db, email, app.deps.clock.now());
      if (left && request.query.b) await countUnsubscribe(db, request.query.b, email, app.deps.clock.now());
      if (wantsPage) return sendPage(reply, 200, unsubscribePage('done', app.deps.config.publicUrl));
      return { success: true, message: 'You have been unsubscribed from the Thriller Circle.' };
    },
  );
};

