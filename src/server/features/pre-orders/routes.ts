import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParam } from '@shared/schemas/common';
import { preOrderAnswerSchema, preOrderSettingsAnswerSchema, preOrderSettingsSchema } from '@shared/schemas/pre-orders';
import { notFound } from '../../platform/http/errors';
import { actorOf } from '../../platform/operations/audit';
import { defineReleaseJob } from './release';
import { getPreOrderArea, preOrderSettingsAnswer, savePreOrderSettings } from './service';

/** The home page's pre-order area (public). */
export const preOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  defineReleaseJob(app.deps);
  app.get(
    '/api/store/pre-order',
    {
      schema: {
        tags: ['checkout'],
        summary: 'The upcoming book on pre-order: release date and priced formats (null when not on pre-order)',
        response: { 200: preOrderAnswerSchema },
      },
    },
    async () => getPreOrderArea(app.deps.database.db, app.deps.clock.now()),
  );
};

/** The admin's pre-order settings of a book; registered inside the admin routes (guard, cache clearing). */
export const adminPreOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

  app.get(
    '/api/admin/books/:id/pre-order',
    {
      schema: {
        tags: ['admin'],
        summary: 'A book’s release date and prices, and every pre-ordered digital format still without a file',
        params: idParam,
        response: { 200: preOrderSettingsAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const settings = await preOrderSettingsAnswer(db, request.params.id);
      if (!settings) throw notFound('Book not found');
      return settings;
    },
  );

  app.put(
    '/api/admin/books/:id/pre-order',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set a book’s release date and prices; the release job follows the date',
        params: idParam,
        body: preOrderSettingsSchema,
        response: { 200: preOrderSettingsAnswerSchema, ...errors },
      },
    },
    async (request) => savePreOrderSettings(app.deps, request.params.id, request.body, actorOf(request), app.deps.clock.now()),
  );
};
