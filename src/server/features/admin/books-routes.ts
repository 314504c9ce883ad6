import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookInputSchema, bookSchema, bookUpdateSchema } from '@shared/schemas/books';
import { errorSchema, idParam } from '@shared/schemas/common';
import { actorOf } from '../../platform/operations/audit';
import { createBook, updateBook } from '../books/service';

const TEXT_FIELDS = ['title', 'tagline', 'synopsis', 'coverImage', 'publisher'] as const;

/**
 * A field left out of the body gets the same message (docs/PRODUCT.md, Book form) as an empty one ("Title is required"),
 * not a generic type error.
 */
async function fillMissingText(request: { body: unknown }) {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  for (const key of TEXT_FIELDS) if (record[key] === undefined || record[key] === null) record[key] = '';
  if (record.yearPublished === null || record.yearPublished === '') record.yearPublished = undefined;
}

export const adminBooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const clock = app.deps.clock;

  app.post(
    '/api/admin/books',
    {
      preValidation: fillMissingText,
      schema: {
        tags: ['admin'],
        summary: 'Create a book (the book form rules)',
        body: bookInputSchema,
        response: { 201: bookSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await createBook(db, request.body, actorOf(request), clock.now())),
  );

  app.put(
    '/api/admin/books/:id',
    {
      preValidation: fillMissingText,
      schema: {
        tags: ['admin'],
        summary: 'Update a book (the book form rules)',
        params: idParam,
        body: bookUpdateSchema,
        response: { 200: bookSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => updateBook(db, request.params.id, request.body, actorOf(request), clock.now()),
  );
};
