import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { siteSettingsAnswerSchema, siteSettingsSchema } from '@shared/schemas/admin';
import { errorSchema } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { readSiteSettings, saveSiteSettings } from '../site/service';

const refusals = { 401: errorSchema, 403: errorSchema };

/** The author's site content: name, bio, publisher, agent, social links and the teaser video. */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/settings',
    { schema: { tags: ['admin'], response: { 200: siteSettingsAnswerSchema, ...refusals } } },
    async () => readSiteSettings(db),
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
    async (request) => saveSiteSettings(db, request.body, actorOf(request), clock.now()),
  );
};
