/** Helpers for store tests: buy a format through the real checkout and local payment page. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { isDigitalFormat } from '@shared/constants';
import { checkoutSessions, digitalAssets, purchases, shippingZones, taxRates } from '../../db/schema';
import { type TestAgent, type TestApp, type TestAppOptions, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';

export async function featuredBookId(app: FastifyInstance): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/books/featured' });
  expect(res.statusCode).toBe(200);
  return res.json().id as number;
}

/** A test app of its own (store routes have per-address limits) and the featured book's id. */
export async function storeApp(options?: TestAppOptions): Promise<{ t: TestApp; bookId: number }> {
  const t = await createTestApp(options);
  return { t, bookId: await featuredBookId(t.app) };
}

/** The same, with the author signed in for the admin routes. */
export async function storeAppWithAdmin(options?: TestAppOptions): Promise<{ t: TestApp; bookId: number; admin: TestAgent }> {
  const store = await storeApp(options);
  return { ...store, admin: (await adminAgent(store.t)).agent };
}

/** No tax rates, no shipping zones and prices that include no tax: the store as a test starts it. */
export async function clearTaxAndShipping(t: TestApp, admin: TestAgent): Promise<void> {
  await t.database.db.delete(taxRates);
  await t.database.db.delete(shippingZones);
  const res = await admin.put('/api/admin/tax', { pricesIncludeTax: true, defaultRate: 0, rates: [] });
  expect(res.statusCode, res.body).toBe(200);
}

/** The reader's checkout sessions, and their purchases of one format, as stored. */
export const checkoutSessionsOf = (t: TestApp, userId: number) =>
  t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId));
export const purchasesOf = (t: TestApp, userId: number, format: string) =>
  t.database.db.select().from(purchases).where(and(eq(purchases.userId, userId), eq(purchases.format, format)));

/** POST /api/checkout and return the checkout session id from the local payment URL. */
export async function startCheckout(agent: TestAgent, bookId: number, format: string): Promise<string> {
  const res = await agent.post('/api/checkout', { bookId, format });
  expect(res.statusCode, res.body).toBe(200);
  const url = res.json().url as string;
  const match = /^\/pay\/([\w-]+)$/.exec(url);
  expect(match, url).not.toBeNull();
  return match![1];
}

/** An address to ship a test's print order to. */
export const TEST_ADDRESS = { name: 'Ada Reader', line1: '1 Harbour Street', city: 'Whitby', postalCode: 'YO21 3PU', country: 'United Kingdom' };

/** Checkout and pay on the local payment page (print orders with an address); returns the pay answer. */
export async function buy(agent: TestAgent, bookId: number, format: string) {
  const sessionId = await startCheckout(agent, bookId, format);
  const res = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, isDigitalFormat(format) ? undefined : { shippingAddress: TEST_ADDRESS });
  expect(res.statusCode, res.body).toBe(200);
  return { sessionId, ...(res.json() as { status: string; redirectTo: string; orderReference: string | null }) };
}

/** One request the fake Stripe received: what the `stripe` package sent. */
export interface StripeRequest {
  method: string;
  url: URL;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

/**
 * A stand-in for Stripe's API on a local port: the real `stripe` package is pointed at it (STRIPE_API_URL)
 * and `answer` gives the JSON for each request it knows; anything else is Stripe's 404.
 */
export async function startFakeStripe(answer: (request: StripeRequest) => unknown) {
  const requests: StripeRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const key = req.headers['idempotency-key'];
      const request: StripeRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://localhost'),
        body: new URLSearchParams(raw),
        idempotencyKey: Array.isArray(key) ? key[0] : key,
      };
      requests.push(request);
      res.setHeader('Content-Type', 'application/json');
      const body = answer(request);
      if (body === undefined) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.url.pathname})` } }));
        return;
      }
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The env that points the app at a fake Stripe. */
export const stripeEnv = (apiUrl: string, webhookSecret: string) => ({
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_fake_stripe',
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  STRIPE_API_URL: apiUrl,
});

/** A paid Checkout Session as Stripe describes it in webhooks and lists, for one of our checkout sessions. */
export function stripeCheckoutSession(ours: { id: string; providerSessionId: string }, fields: Record<string, unknown> = {}) {
  return {
    id: ours.providerSessionId,
    object: 'checkout.session',
    client_reference_id: ours.id,
    metadata: { checkoutId: ours.id },
    amount_total: 999,
    currency: 'gbp',
    payment_status: 'paid',
    customer_details: { name: 'Ada Reader', email: 'ada@example.com' },
    ...fields,
  };
}

let eventCounter = 0;

/** A Stripe event's JSON body. */
export const stripeEvent = (type: string, object: Record<string, unknown>, id = `evt_${++eventCounter}_${Date.now()}`) =>
  JSON.stringify({ id, object: 'event', type, data: { object } });

/** The Stripe-Signature header for a payload, as Stripe would sign it at `now`. */
export const signStripe = (payload: string, secret: string, now: Date) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(now.getTime() / 1000) });

/** POST a webhook body to our endpoint, signed or (signature omitted) not. */
export const postStripeWebhook = (app: FastifyInstance, payload: string, signature?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload,
  });

/** A new reader, signed in, who has bought nothing yet. */
export async function newReader(t: TestApp) {
  const user = await createUser(t.database);
  return { user, agent: await signedInAgent(t.app, user.id) };
}

/** A new reader, signed in, who bought these formats of the book through the real checkout. */
export async function newBuyer(t: TestApp, bookId: number, formats: string[] = ['ebook']) {
  const reader = await newReader(t);
  for (const format of formats) await buy(reader.agent, bookId, format);
  return reader;
}

/** The reader's purchase row of a format. */
export async function purchaseOf(t: TestApp, userId: number, format = 'ebook') {
  const [row] = await t.database.db
    .select()
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.format, format)));
  return row;
}

/** The id of the book's file of this format (what /api/digital-assets/{id}/download names). */
export async function assetIdOf(t: TestApp, bookId: number, format: string): Promise<number> {
  const [asset] = await t.database.db
    .select({ id: digitalAssets.id })
    .from(digitalAssets)
    .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format)));
  return asset.id;
}
