import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formatPrice } from '@shared/constants';
import { errorSchema } from '@shared/schemas/common';
import { quoteQuerySchema, quoteSchema } from '@shared/schemas/discounts';
import { AppError, notFound } from '../../platform/http/errors';
import { getBook, getPrice } from '../books/service';
import { discountRefusedError, priceWithDiscount } from './service';

/**
 * Routes of the discounts domain. GET /api/checkout/quote: the checkout page shows the struck list price and
 * the price to pay (the admin's discount routes are in admin-routes.ts).
 */
export const discountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/checkout/quote',
    {
      preHandler: app.requireUser,
      // Each answer says whether a code exists, so guessing codes is slowed down.
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['checkout'],
        summary: 'Price of a format with an optional discount code (the same rules as POST /api/checkout)',
        querystring: quoteQuerySchema,
        response: { 200: quoteSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const { bookId, format, discountCode } = request.query;
      const book = await getBook(db, bookId);
      if (!book) throw notFound('Book not found');
      const price = book.featured ? await getPrice(db, book.id, format) : null;
      if (!price) throw new AppError('NOT_AVAILABLE', 409, 'The book is currently not available for purchase in this format');
      const pricing = await priceWithDiscount(db, { format, price: price.price, code: discountCode, now: app.deps.clock.now() });
      if (!pricing.ok) throw discountRefusedError(pricing);
      const { priced } = pricing;
      return {
        amount: priced.amount,
        displayPrice: formatPrice(priced.amount),
        originalAmount: price.price,
        displayOriginalPrice: formatPrice(price.price),
        discountCode: priced.discountCode,
      };
    },
  );
};
