import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { errorSchema } from '@shared/schemas/common';
import { checkoutRequestSchema, checkoutResponseSchema, paymentResultSchema, paymentSessionParams, paymentSessionSchema, storeFormatsResponseSchema } from '@shared/schemas/checkout';
import { checkoutSessions } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import { LocalPaymentProvider } from '../../platform/payments';
import { quoteRoutes, refuseRanOut } from './discount-routes';
import { handlePaymentEvent } from './fulfilment';
import { defineReconcileJob } from './reconcile';
import { completionRedirect, createCheckout, getPaymentSession, listStoreFormats } from './service';
import { stripeWebhookRoutes } from './webhook-routes';

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
    async (request) => createCheckout(app.deps, request.auth!.userId, request.body),
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
      return getPaymentSession(db, request.auth!.userId, request.params.sessionId);
    },
  );

  /** The local test provider only: its sessions are paid here, through the same fulfilment as Stripe. */
  const localSession = async (userId: number, sessionId: string) => {
    const provider = app.deps.payments;
    const session = await getPaymentSession(db, userId, sessionId);
    const [row] = await db
      .select({ provider: checkoutSessions.provider, providerSessionId: checkoutSessions.providerSessionId })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, sessionId));
    if (!(provider instanceof LocalPaymentProvider) || row.provider !== 'local') {
      throw notFound('Checkout session not found');
    }
    return { session, provider, providerSessionId: row.providerSessionId };
  };

  app.post(
    '/api/checkout/sessions/:sessionId/pay',
    {
      preHandler: app.requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['checkout'],
        summary: 'Pay on the local test payment page',
        params: paymentSessionParams,
        response: { 200: paymentResultSchema, ...errors, 410: errorSchema },
      },
    },
    async (request) => {
      const userId = request.auth!.userId;
      const { session, provider, providerSessionId } = await localSession(userId, request.params.sessionId);
      if (session.status === 'open' && new Date(session.expiresAt) <= app.deps.clock.now()) {
        throw new AppError('CHECKOUT_EXPIRED', 410, 'This checkout has expired. Please start your purchase again.');
      }
      if (session.status === 'cancelled' || session.status === 'expired') {
        throw new AppError('CHECKOUT_CLOSED', 409, 'This checkout was cancelled. Please start your purchase again.');
      }
      if (session.status === 'open') {
        const paid = await handlePaymentEvent(
          app.deps,
          provider.paymentEvent({
            id: session.id,
            providerSessionId,
            amount: session.amount,
            currency: session.currency,
            customerName: '',
            customerEmail: session.customerEmail,
          }),
          'local',
        );
        refuseRanOut(paid);
      }
      const after = await getPaymentSession(db, userId, session.id);
      return {
        status: after.status,
        redirectTo: completionRedirect(after),
        orderReference: after.orderReference,
      };
    },
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
    async (request) => {
      const { session } = await localSession(request.auth!.userId, request.params.sessionId);
      if (session.status === 'open') {
        // Conditional, so a cancel racing a payment can never undo a completed checkout.
        await db
          .update(checkoutSessions)
          .set({ status: 'cancelled' })
          .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'open')));
      }
      const after = await getPaymentSession(db, request.auth!.userId, session.id);
      return {
        status: after.status,
        redirectTo: after.status === 'completed' ? completionRedirect(after) : '/#purchase',
        orderReference: after.orderReference,
      };
    },
  );

  await app.register(stripeWebhookRoutes);
  await app.register(quoteRoutes);
};
