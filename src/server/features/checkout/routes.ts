import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { checkoutRequestSchema, checkoutResponseSchema, paymentResultSchema, myFormatsResponseSchema, paymentSessionParams, paymentSessionSchema, payRequestSchema, storeFormatsResponseSchema } from '@shared/schemas/checkout';
import { basketRoutes } from './basket-routes';
import { cancelLocalSession, payLocalSession } from './local-payments';
import { defineReconcileJob } from './reconcile';
import { createCheckout, getPaymentSession, listMyFormats, listStoreFormats } from './service';
import { stripeWebhookRoutes } from './webhook-routes';
import { requireUser } from '../../platform/security/sessions';

/** Routes of the checkout domain: formats and prices, starting a payment, the local payment page API. */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  defineReconcileJob(app.deps);
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };

  app.get(
    '/api/store/formats',
    {
      schema: {
        tags: ['checkout'],
        summary: 'The purchase section: formats of the featured book with server prices',
        response: { 200: storeFormatsResponseSchema },
      },
    },
    async () => listStoreFormats(db),
  );

  app.get(
    '/api/store/my-formats',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['checkout'],
        summary: "The purchase section for the caller: formats already in their library, formats bought a moment ago",
        response: { 200: myFormatsResponseSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listMyFormats(db, requireUser(request).userId, app.deps.clock.now());
    },
  );

  app.post(
    '/api/checkout',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['checkout'],
        summary: 'Start a payment; the server prices it and answers the hosted payment page URL',
        body: checkoutRequestSchema,
        response: { 200: checkoutResponseSchema, ...errors, 502: errorSchema },
      },
    },
    async (request) => createCheckout(app.deps, requireUser(request).userId, request.body),
  );

  app.get(
    '/api/checkout/sessions/:sessionId',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['checkout'],
        summary: "The caller's checkout session, for the payment and confirmation page",
        params: paymentSessionParams,
        response: { 200: paymentSessionSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return getPaymentSession(db, requireUser(request).userId, request.params.sessionId, app.deps.clock.now());
    },
  );

  app.post(
    '/api/checkout/sessions/:sessionId/pay',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['checkout'],
        summary: 'Pay on the local test payment page (print orders send the address to ship to)',
        params: paymentSessionParams,
        body: payRequestSchema.nullish(),
        response: { 200: paymentResultSchema, ...errors, 410: errorSchema },
      },
    },
    async (request) => payLocalSession(app.deps, requireUser(request).userId, request.params.sessionId, request.body?.shippingAddress),
  );

  app.post(
    '/api/checkout/sessions/:sessionId/cancel',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['checkout'],
        summary: 'Cancel a local test payment',
        params: paymentSessionParams,
        response: { 200: paymentResultSchema, ...errors },
      },
    },
    async (request) => cancelLocalSession(app.deps, requireUser(request).userId, request.params.sessionId),
  );

  await app.register(stripeWebhookRoutes);
  await app.register(basketRoutes);
};
