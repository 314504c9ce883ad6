import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '@shared/schemas/common';
import { InvalidSignatureError } from '../../platform/payments';
import { handlePaymentEvent } from './fulfilment';
import { handleRefundEvent } from './refunds';
import { recordForgedWebhook, recordWebhookFailure } from './webhook-failures';

/**
 * POST /api/webhooks/stripe. Authenticated by Stripe's signature over the exact raw bytes, so this
 * plugin (and only this plugin) keeps JSON bodies as Buffers, and CSRF does not apply.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(['application/json'], { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/webhooks/stripe',
    {
      config: { csrf: false },
      schema: {
        tags: ['checkout'],
        summary: 'Stripe webhook (signed); fulfils checkout.session.completed',
        hide: true,
        response: { 200: z.object({ received: z.boolean() }), 400: errorSchema },
      },
    },
    async (request, reply) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) {
        return reply.status(400).send({ message: 'Webhook body must be JSON', code: 'BAD_REQUEST' });
      }
      const header = request.headers['stripe-signature'];
      let event;
      try {
        event = app.deps.payments.parseWebhook(raw, Array.isArray(header) ? header[0] : header);
      } catch (error) {
        if (error instanceof InvalidSignatureError) {
          request.log.warn({ reason: error.message }, 'refused a webhook with a bad signature');
          await recordForgedWebhook(app.deps);
          return reply.status(400).send({ message: 'Invalid webhook signature', code: 'INVALID_SIGNATURE' });
        }
        throw error;
      }
      let result;
      try {
        result = event.refund ? { outcome: await handleRefundEvent(app.deps, event) } : await handlePaymentEvent(app.deps, event, 'webhook');
      } catch (error) {
        // Stripe retries a 5xx; the failure is noted so the operator sees it before the retries run out.
        await recordWebhookFailure(app.deps, { reason: 'error', eventId: event.id, detail: (error as Error).message });
        throw error;
      }
      request.log.info({ eventId: event.id, outcome: result.outcome }, 'webhook handled');
      if (result.outcome === 'mismatch' || result.outcome === 'unknown-session') {
        await recordWebhookFailure(app.deps, { reason: result.outcome, eventId: event.id });
      }
      // Any verified event is acknowledged, so Stripe stops retrying what we chose not to fulfil.
      return { received: true };
    },
  );
};
