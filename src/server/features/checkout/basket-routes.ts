import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bundleCheckoutRequestSchema } from '@shared/schemas/bundles';
import { createBundleCheckout } from './bundle-checkout';
import { errorSchema } from '@shared/schemas/common';
import {
  basketCheckoutRequestSchema,
  basketItemParams,
  basketItemRequestSchema,
  basketPreviewRequestSchema,
  basketQuantityRequestSchema,
  basketQuerySchema,
  basketSchema,
} from '@shared/schemas/basket';
import { checkoutResponseSchema } from '@shared/schemas/checkout';
import { type BasketView, addItem, getBasket, previewBasket, removeItem, setQuantity } from './basket';
import { createBasketCheckout } from './basket-checkout';
import { requireUser } from '../../platform/security/sessions';

/** The basket API and its checkout (issue 26 point 1). Every signed-in route reads only the caller's lines. */
export const basketRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const now = () => app.deps.clock.now();
  // With Stripe, Stripe Tax works the tax out at payment; the basket shows none from the author's table.
  const providerTaxes = app.deps.payments.name === 'stripe';
  // The add, change and remove answers carry no destination: the page asks for the basket again with it.
  const noDestination: BasketView = { shippingCountry: null, providerTaxes };
  const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema };

  app.get(
    '/api/basket',
    {
      preHandler: app.requireUser,
      // Each answer with a code says whether it exists, so guessing codes is slowed down (as the quote).
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['basket'],
        summary: "The caller's basket, priced now, with an optional discount code applied, and the shipping and tax to an optional destination",
        querystring: basketQuerySchema,
        response: { 200: basketSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const view = { shippingCountry: request.query.shippingCountry ?? null, providerTaxes };
      return getBasket(db, requireUser(request).userId, request.query.discountCode, now(), view);
    },
  );

  app.post(
    '/api/basket/preview',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['basket'],
        summary: "A signed-out visitor's basket (kept in the browser), priced by the server",
        body: basketPreviewRequestSchema,
        response: { 200: basketSchema, 400: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return previewBasket(db, request.body.items, now(), { shippingCountry: request.body.shippingCountry ?? null, providerTaxes });
    },
  );

  app.post(
    '/api/basket/items',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['basket'],
        summary: 'Add a format of a book to the basket (print: 1-10 copies; digital: one, not if owned)',
        body: basketItemRequestSchema,
        response: { 200: basketSchema, ...errors },
      },
    },
    async (request) => addItem(db, requireUser(request).userId, request.body, now(), noDestination),
  );

  app.patch(
    '/api/basket/items/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['basket'],
        summary: "Change a basket line's quantity",
        params: basketItemParams,
        body: basketQuantityRequestSchema,
        response: { 200: basketSchema, ...errors },
      },
    },
    async (request) => setQuantity(db, requireUser(request).userId, request.params.id, request.body.quantity, now(), noDestination),
  );

  app.delete(
    '/api/basket/items/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['basket'],
        summary: 'Remove a line from the basket',
        params: basketItemParams,
        response: { 200: basketSchema, ...errors },
      },
    },
    async (request) => removeItem(db, requireUser(request).userId, request.params.id, now(), noDestination),
  );

  app.post(
    '/api/checkout/basket',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['checkout'],
        summary: 'Start one payment for every line of the basket; the server prices it and answers the payment page URL',
        body: basketCheckoutRequestSchema.nullish(),
        response: { 200: checkoutResponseSchema, ...errors, 502: errorSchema },
      },
    },
    async (request) => createBasketCheckout(app.deps, requireUser(request).userId, request.body ?? { discountCode: undefined }),
  );

  app.post(
    '/api/checkout/bundle',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['checkout'],
        summary: "Start one payment for a bundle at the reader's price (less what they paid for parts they own); answers the payment page URL",
        body: bundleCheckoutRequestSchema,
        response: { 200: checkoutResponseSchema, ...errors, 502: errorSchema },
      },
    },
    async (request) => createBundleCheckout(app.deps, requireUser(request).userId, request.body),
  );
};
