import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookSchema, featuredBookSchema } from '@shared/schemas/books';
import { errorSchema, idParam } from '@shared/schemas/common';
import { sendCachedAnswer } from '../../platform/http/cached-answer';
import { notFound } from '../../platform/http/errors';
import { bookCatalog, priceSchema } from './catalog';

/**
 * Public book reads, answered from the public cache: no database work and no serialization per request.
 * `publicRead` tells the session hook that these answers are the same for everyone.
 */
export const booksRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/books',
    {
      config: { publicRead: true },
      schema: { tags: ['books'], summary: 'All books, the featured one first', response: { 200: z.array(bookSchema) } },
    },
    async (request, reply) => sendCachedAnswer(request, reply, (await bookCatalog(app.deps)).list),
  );

  app.get(
    '/api/books/featured',
    {
      config: { publicRead: true },
      schema: {
        tags: ['books'],
        summary: 'The book on sale',
        response: { 200: featuredBookSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const { featured } = await bookCatalog(app.deps);
      if (!featured) throw notFound('No book is on sale at the moment');
      return sendCachedAnswer(request, reply, featured);
    },
  );

  app.get(
    '/api/books/:id',
    {
      config: { publicRead: true },
      schema: { tags: ['books'], params: idParam, response: { 200: bookSchema, 404: errorSchema } },
    },
    async (request, reply) => {
      const entry = (await bookCatalog(app.deps)).byId.get(request.params.id);
      if (!entry) throw notFound('Book not found');
      return sendCachedAnswer(request, reply, entry.book);
    },
  );

  app.get(
    '/api/books/:id/prices',
    {
      config: { publicRead: true },
      schema: {
        tags: ['books'],
        summary: 'The server price per format, minor units',
        params: idParam,
        response: { 200: z.array(priceSchema), 404: errorSchema },
      },
    },
    async (request, reply) => {
      const entry = (await bookCatalog(app.deps)).byId.get(request.params.id);
      if (!entry) throw notFound('Book not found');
      return sendCachedAnswer(request, reply, entry.prices);
    },
  );
};
