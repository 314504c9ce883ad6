import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import {
  adminApplicationListSchema,
  adminCampaignListSchema,
  applicationAnswerSchema,
  applicationRequestSchema,
  campaignIdParams,
  campaignInputSchema,
  campaignSlugParams,
  countAnswerSchema,
  decideAnswerSchema,
  decideRequestSchema,
  myReviewCopyListSchema,
  publicCampaignSchema,
  reviewLinkRequestSchema,
  withdrawAnswerSchema,
} from '@shared/schemas/review-copies';
import { actorOf } from '../../platform/operations/audit';
import { addLandingHead } from '../../platform/http/landing-head';
import { requireUser } from '../../platform/security/sessions';
import { REMINDER_EVERY_MS, REMINDER_JOB, decideApplications, sendReminders, withdrawUnread } from './approval';
import { listApplications, listCampaigns, saveCampaign } from './campaigns';
import { apply, myReviewCopies, postReviewLink, publicCampaign } from './service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** The reader's side: the campaign page, applying, their review copies and the review links they post. */
export const reviewCopiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.deps.jobs.define(REMINDER_JOB, {
    everyMs: REMINDER_EVERY_MS,
    // Reminders are days apart: nothing is due at a first start, and other jobs' runs stay their own.
    firstRunAfterPeriod: true,
    handler: () => sendReminders(app.deps),
  });

  // The campaign page's own title for crawlers and link previews; an unknown campaign is a 404 page.
  addLandingHead(app, 'review-copies', async (slug) => {
    const campaign = await publicCampaign(db, slug, app.deps.clock.now());
    return { title: `Review copies: ${campaign.book.title}`, description: `Apply for a review copy of ${campaign.book.title} (${campaign.formatLabel}).` };
  });

  app.get(
    '/api/review-copies/mine',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['review-copies'],
        summary: "The signed-in reader's review copies and the review links they posted",
        response: { 200: myReviewCopyListSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return myReviewCopies(db, requireUser(request).userId);
    },
  );

  app.post(
    '/api/review-copies/applications/:id/links',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['review-copies'],
        summary: "Post a link to a review of the reader's own approved review copy (stops the reminders)",
        params: campaignIdParams,
        body: reviewLinkRequestSchema,
        response: { 201: myReviewCopyListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const copies = await postReviewLink(app.deps, requireUser(request).userId, request.params.id, request.body.url);
      return reply.code(201).send(copies);
    },
  );

  app.get(
    '/api/review-copies/:slug',
    {
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['review-copies'],
        summary: 'A review-copy campaign as applicants see it: the book, the question and whether it takes applications',
        params: campaignSlugParams,
        response: { 200: publicCampaignSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publicCampaign(db, request.params.slug, app.deps.clock.now());
    },
  );

  app.post(
    '/api/review-copies/:slug/apply',
    {
      config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
      schema: {
        tags: ['review-copies'],
        summary: 'Apply for a review copy (one application per address and campaign)',
        params: campaignSlugParams,
        body: applicationRequestSchema,
        response: { 201: applicationAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await apply(app.deps, request.params.slug, request.body);
      return reply.code(201).send(answer);
    },
  );
};

/** The author's side, under /api/admin (the admin check comes from there). */
export const adminReviewCopiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/admin/review-copies',
    {
      schema: { tags: ['admin'], summary: 'Review-copy campaigns, newest first, with their counts', response: { 200: adminCampaignListSchema, ...errors } },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listCampaigns(db, app.deps.clock.now());
    },
  );

  app.post(
    '/api/admin/review-copies',
    {
      schema: { tags: ['admin'], summary: 'Create a review-copy campaign', body: campaignInputSchema, response: { 201: adminCampaignListSchema, ...errors } },
    },
    async (request, reply) => {
      await saveCampaign(db, actorOf(request), request.body, app.deps.clock.now());
      return reply.code(201).send(await listCampaigns(db, app.deps.clock.now()));
    },
  );

  app.put(
    '/api/admin/review-copies/:id',
    {
      schema: { tags: ['admin'], summary: 'Edit a review-copy campaign', params: campaignIdParams, body: campaignInputSchema, response: { 200: adminCampaignListSchema, ...errors } },
    },
    async (request) => {
      await saveCampaign(db, actorOf(request), request.body, app.deps.clock.now(), request.params.id);
      return listCampaigns(db, app.deps.clock.now());
    },
  );

  app.get(
    '/api/admin/review-copies/:id/applications',
    {
      schema: {
        tags: ['admin'],
        summary: "A campaign's applications, with applicants who kept a past copy without a review flagged",
        params: campaignIdParams,
        response: { 200: adminApplicationListSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listApplications(db, request.params.id, app.deps.clock.now());
    },
  );

  app.post(
    '/api/admin/review-copies/:id/decide',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approve or decline one or many pending applications of a campaign',
        params: campaignIdParams,
        body: decideRequestSchema,
        response: { 200: decideAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const answer = await decideApplications(app.deps, actorOf(request), request.params.id, request.body.ids, request.body.decision);
      if (answer.approved > 0) app.deps.jobs.kick('mail-dispatch');
      return answer;
    },
  );

  app.post(
    '/api/admin/review-copies/:id/remind',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remind now every approved reader of the campaign who has not posted a review link',
        params: campaignIdParams,
        response: { 200: countAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { sent } = await sendReminders(app.deps, { campaignId: request.params.id, all: true });
      return { count: sent, message: sent === 0 ? 'Every approved reader has posted a review: no reminder sent.' : sent === 1 ? '1 reminder sent.' : `${sent} reminders sent.` };
    },
  );

  app.post(
    '/api/admin/review-copies/:id/withdraw',
    {
      schema: {
        tags: ['admin'],
        summary: 'Once the campaign has closed, remove from readers’ libraries the copies they never opened',
        params: campaignIdParams,
        response: { 200: withdrawAnswerSchema, ...errors },
      },
    },
    async (request) => withdrawUnread(app.deps, actorOf(request), request.params.id),
  );
};
