import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatLabel } from '@shared/constants';
import { errorSchema, idParam, successMessageSchema } from '@shared/schemas/common';
import {
  FREE_BOOK_MESSAGES,
  adminFreeBookListSchema,
  adminFreeBookSchema,
  freeBookClaimAnswerSchema,
  freeBookClaimSchema,
  freeBookConfirmAnswerSchema,
  freeBookConfirmSchema,
  freeBookInputSchema,
  freeBookPageSchema,
  freeBookSlugParams,
} from '@shared/schemas/free-books';
import { actorOf } from '../../platform/operations/audit';
import { AppError } from '../../platform/http/errors';
import { addLandingHead } from '../../platform/http/landing-head';
import { createFreeBook, deleteFreeBook, listAdminFreeBooks, updateFreeBook } from './admin-service';
import { CLAIMS_PER_ADDRESS, claimAddressKey, confirmFreeBook, freeBookPage, requestFreeBook } from './service';

/** Per IP, the newsletter form's limit: a household asking, not a list being loaded. */
const CLAIM_LIMIT = { max: 10, timeWindow: 10 * 60 * 1000 };

const errors = { 400: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** The landing page's data, the claim, and the confirmation's button (decision 0097). */
export const freeBooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { counter, clock } = app.deps;

  // The landing page's own title for crawlers and link previews; nothing offered there is a 404 page.
  addLandingHead(app, 'free', async (slug) => {
    const page = await freeBookPage(db, slug);
    return { title: `Free: ${page.book.title}`, description: page.pitch };
  });

  app.get(
    '/api/free-books/:slug',
    {
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { tags: ['free-books'], summary: 'What a free book landing page shows; 404 when nothing is offered there', params: freeBookSlugParams, response: { 200: freeBookPageSchema, 404: errorSchema } },
    },
    async (request, reply) => {
      // The admin may switch the offer off at any time: a page must not outlive it in a cache.
      reply.header('Cache-Control', 'no-store');
      return freeBookPage(db, request.params.slug);
    },
  );

  app.post(
    '/api/free-books/:slug/claim',
    {
      // Per IP like the newsletter's form; per address below, so nobody floods someone else's inbox.
      config: { rateLimit: CLAIM_LIMIT },
      schema: {
        tags: ['free-books'],
        summary: 'Ask for a free book: mails a confirmation link; the same answer for every address that may claim',
        params: freeBookSlugParams,
        body: freeBookClaimSchema,
        response: { 200: freeBookClaimAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const hit = await counter.hit(claimAddressKey(request.body.email), CLAIMS_PER_ADDRESS.windowMs);
      if (hit.count > CLAIMS_PER_ADDRESS.max) {
        const waitMs = Math.max(1000, hit.resetAt - clock.now().getTime());
        const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
        reply.header('Retry-After', String(Math.ceil(waitMs / 1000)));
        throw new AppError('RATE_LIMITED', 429, `Too many requests for this address. Please wait ${minutes === 1 ? '1 minute' : `${minutes} minutes`} and try again.`);
      }
      reply.header('Cache-Control', 'no-store');
      await requestFreeBook(app.deps, request.params.slug, request.body);
      return { success: true, message: FREE_BOOK_MESSAGES.sent };
    },
  );

  // Only this POST confirms: the link in the mail opens a page, so a mail scanner following it changes nothing.
  app.post(
    '/api/free-books/confirm',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags: ['free-books'],
        summary: 'Use a free book confirmation link (once, within 24 hours): subscribe, add the book to the library and sign in',
        body: freeBookConfirmSchema,
        response: { 200: freeBookConfirmAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const claim = await confirmFreeBook(app.deps, request.body.token);
      // The same session an emailed sign-in link starts (decision 0084); whatever this browser held before ends.
      if (request.auth) await app.sessions.revokeRequestSessions(request);
      const issued = await app.sessions.create(claim.user.id, { userAgent: request.headers['user-agent'], ip: request.ip });
      app.sessions.setCookie(reply, issued);
      return {
        success: true,
        message: FREE_BOOK_MESSAGES.claimed,
        user: claim.user,
        token: issued.bearerToken,
        book: claim.book,
        format: claim.format,
        formatLabel: formatLabel(claim.format),
      };
    },
  );
};

const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** Admin "Free book": list with figures, create, change, remove. */
export const adminFreeBooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;
  app.get(
    '/api/admin/free-books',
    { schema: { tags: ['admin'], summary: 'Every free book with its requests, claims and later buyers per source', response: { 200: adminFreeBookListSchema, ...refusals } } },
    async () => listAdminFreeBooks(db),
  );
  app.post(
    '/api/admin/free-books',
    {
      schema: {
        tags: ['admin'],
        summary: 'Offer a digital format of a book free to new subscribers at /free/{slug}',
        body: freeBookInputSchema,
        response: { 201: adminFreeBookSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request, reply) => reply.status(201).send(await createFreeBook(db, request.body, actorOf(request), clock.now())),
  );
  app.put(
    '/api/admin/free-books/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change a free book (switch it off with active false)',
        params: idParam,
        body: freeBookInputSchema,
        response: { 200: adminFreeBookSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => updateFreeBook(db, request.params.id, request.body, actorOf(request), clock.now()),
  );
  app.delete(
    '/api/admin/free-books/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a free book and its figures; copies already claimed stay with their readers',
        params: idParam,
        response: { 200: successMessageSchema, 404: errorSchema, ...refusals },
      },
    },
    async (request) => {
      await deleteFreeBook(db, request.params.id, actorOf(request), clock.now());
      return { success: true, message: 'Free book removed' };
    },
  );
};
