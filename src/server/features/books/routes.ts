import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookSchema, featuredBookSchema } from '@shared/schemas/books';
import { errorSchema, idParam } from '@shared/schemas/common';
import { notFound } from '../../platform/errors';
import { getBook, getFeaturedBook, listBooks, listPrices } from './service';

const priceSchema = z.object({ format: z.string(), price: z.number().int(), currency: z.string() });

export const booksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/books',
    { schema: { tags: ['books'], summary: 'All books, the featured one first', response: { 200: z.array(bookSchema) } } },
    async () => listBooks(db),
  );

  app.get(
    '/api/books/featured',
    {
      schema: {
        tags: ['books'],
        summary: 'The book on sale',
        response: { 200: featuredBookSchema, 404: errorSchema },
      },
    },
    async () => {
      const book = await getFeaturedBook(db);
      if (!book) throw notFound('No book is on sale at the moment');
      return { id: book.id, title: book.title };
    },
  );

  app.get(
    '/api/books/:id',
    { schema: { tags: ['books'], params: idParam, response: { 200: bookSchema, 404: errorSchema } } },
    async (request) => {
      const book = await getBook(db, request.params.id);
      if (!book) throw notFound('Book not found');
      return book;
    },
  );

  app.get(
    '/api/books/:id/prices',
    {
      schema: {
        tags: ['books'],
        summary: 'The server price per format, minor units',
        params: idParam,
        response: { 200: z.array(priceSchema), 404: errorSchema },
      },
    },
    async (request) => {
      const book = await getBook(db, request.params.id);
      if (!book) throw notFound('Book not found');
      return listPrices(db, book.id);
    },
  );
};
