import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, ne } from 'drizzle-orm';
import { DEFAULT_PRICES, PURCHASE_FORMATS } from '@shared/constants';
import { bookInputSchema, bookSchema, type Book, type BookInput } from '@shared/schemas/books';
import { errorSchema, idParam } from '@shared/schemas/common';
import type { DbOrTx } from '../../db/client';
import { bookPrices, books } from '../../db/schema';
import { conflict, notFound } from '../../platform/errors';
import { bookColumns } from '../books/service';
import { actorOf, audit } from '../../platform/audit';
import { uniqueViolation } from '../../platform/db-errors';

const TEXT_FIELDS = ['title', 'tagline', 'synopsis', 'coverImage', 'publisher'] as const;

/**
 * A field left out of the body gets the same SPEC 5 message as an empty one ("Title is required"),
 * not a generic type error.
 */
async function fillMissingText(request: { body: unknown }) {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  for (const key of TEXT_FIELDS) if (record[key] === undefined || record[key] === null) record[key] = '';
  if (record.yearPublished === null || record.yearPublished === '') record.yearPublished = undefined;
}

/** Only one book is on sale: featuring one unfeatures the others in the same transaction. */
async function unfeatureOthers(tx: DbOrTx, keepId: number | null, now: Date) {
  await tx
    .update(books)
    .set({ featured: false, updatedAt: now })
    .where(keepId === null ? eq(books.featured, true) : and(eq(books.featured, true), ne(books.id, keepId)));
}

export const adminBooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const clock = app.deps.clock;

  const write = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      // Two admins featuring different books at the same moment: the partial unique index decides.
      if (uniqueViolation(error) !== null) throw conflict('Another book was featured at the same time. Please try again.');
      throw error;
    }
  };

  app.post(
    '/api/admin/books',
    {
      preValidation: fillMissingText,
      schema: {
        tags: ['admin'],
        summary: 'Create a book (SPEC 5 rules)',
        body: bookInputSchema,
        response: { 201: bookSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const input: BookInput = request.body;
      const book = await write(() =>
        db.transaction(async (tx) => {
          if (input.featured) await unfeatureOthers(tx, null, clock.now());
          const [row] = await tx.insert(books).values(input).returning(bookColumns);
          // A new book is sellable at the list prices until someone sets others.
          await tx
            .insert(bookPrices)
            .values(PURCHASE_FORMATS.map((format) => ({ bookId: row.id, format, price: DEFAULT_PRICES[format] })))
            .onConflictDoNothing();
          await audit(tx, actorOf(request), { action: 'book.create', targetType: 'book', targetId: row.id, details: { ...input } }, clock.now());
          return row;
        }),
      );
      return reply.status(201).send(book);
    },
  );

  app.put(
    '/api/admin/books/:id',
    {
      preValidation: fillMissingText,
      schema: {
        tags: ['admin'],
        summary: 'Update a book (SPEC 5 rules)',
        params: idParam,
        body: bookInputSchema,
        response: { 200: bookSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const input: BookInput = request.body;
      const { id } = request.params;
      return write(() =>
        db.transaction(async (tx): Promise<Book> => {
          const [before] = await tx.select(bookColumns).from(books).where(eq(books.id, id)).for('update');
          if (!before) throw notFound('Book not found');
          if (input.featured) await unfeatureOthers(tx, id, clock.now());
          const [row] = await tx
            .update(books)
            .set({ ...input, updatedAt: clock.now() })
            .where(eq(books.id, id))
            .returning(bookColumns);
          const changed = Object.fromEntries(
            Object.entries(input).filter(([k, v]) => before[k as keyof Book] !== v),
          );
          await audit(tx, actorOf(request), { action: 'book.update', targetType: 'book', targetId: id, details: { changed } }, clock.now());
          return row;
        }),
      );
    },
  );
};
