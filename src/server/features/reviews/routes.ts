import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParam, successMessageSchema } from '@shared/schemas/common';
import {
  adminReviewSchema,
  adminReviewsQuery,
  bookIdParam,
  myReviewAnswerSchema,
  myReviewSchema,
  reviewAnswerRequestSchema,
  reviewRequestSchema,
  REVIEW_MESSAGES,
} from '@shared/schemas/reviews';
import { actorOf } from '../../platform/operations/audit';
import { answerReview, createReview, dismissPrompt, listReviewsForAdmin, myReview, setReviewStatus, updateReview } from './service';
import { requireUser } from '../../platform/security/sessions';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** The reader's side of verified reviews: their review of a book they own, and the end-of-book question. */
export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/books/:id/my-review',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reviews'],
        summary: 'Whether the signed-in reader may review the book, their review, and whether to ask at the end',
        params: bookIdParam,
        response: { 200: myReviewAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return myReview(db, requireUser(request).userId, request.params.id);
    },
  );

  app.post(
    '/api/books/:id/my-review',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['reviews'],
        summary: 'Rate and review a book the reader owns (once; edit it with PUT)',
        params: bookIdParam,
        body: reviewRequestSchema,
        response: { 201: myReviewSchema, ...errors },
      },
    },
    async (request, reply) => {
      const review = await createReview(app.deps, requireUser(request).userId, request.params.id, request.body);
      return reply.code(201).send(review);
    },
  );

  app.put(
    '/api/books/:id/my-review',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['reviews'],
        summary: "Edit the reader's review; it waits for the author's approval again",
        params: bookIdParam,
        body: reviewRequestSchema,
        response: { 200: myReviewSchema, ...errors },
      },
    },
    async (request) => updateReview(app.deps, requireUser(request).userId, request.params.id, request.body),
  );

  app.post(
    '/api/books/:id/review-prompt/dismiss',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['reviews'],
        summary: 'Do not ask "Enjoyed it?" again for this book',
        params: bookIdParam,
        response: { 200: successMessageSchema, ...errors },
      },
    },
    async (request) => {
      await dismissPrompt(db, requireUser(request).userId, request.params.id);
      return { success: true, message: REVIEW_MESSAGES.promptDismissed };
    },
  );
};

/** The author's side, under /api/admin (the admin check and the public-cache clear come from there). */
export const adminReviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/admin/reviews',
    {
      schema: {
        tags: ['admin'],
        summary: 'Readers’ reviews, newest first, optionally of one state (pending, approved, hidden)',
        querystring: adminReviewsQuery,
        response: { 200: z.array(adminReviewSchema), ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listReviewsForAdmin(db, request.query.status);
    },
  );

  for (const [action, status] of [
    ['approve', 'approved'],
    ['hide', 'hidden'],
  ] as const) {
    app.post(
      `/api/admin/reviews/:id/${action}`,
      {
        schema: {
          tags: ['admin'],
          summary: action === 'approve' ? 'Show a review on the home page as a verified reader’s' : 'Hide a review from the public',
          params: idParam,
          response: { 200: adminReviewSchema, ...errors },
        },
      },
      async (request) => setReviewStatus(app.deps, request.params.id, status, actorOf(request)),
    );
  }

  app.put(
    '/api/admin/reviews/:id/answer',
    {
      schema: {
        tags: ['admin'],
        summary: 'The author’s public answer to a review (empty removes it)',
        params: idParam,
        body: reviewAnswerRequestSchema,
        response: { 200: adminReviewSchema, ...errors },
      },
    },
    async (request) => answerReview(app.deps, request.params.id, request.body.answer, actorOf(request)),
  );
};
