import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, mailOutbox, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId } from './test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_refunds';

/**
 * A stand-in for Stripe's API on a local port (the real `stripe` package is pointed at it): it creates
 * Checkout Sessions and refunds, and remembers what it was asked.
 */
async function startFakeStripe() {
  const created: URLSearchParams[] = [];
  const refunds: Array<{ body: URLSearchParams; idempotencyKey: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = new URLSearchParams(raw);
      res.setHeader('Content-Type', 'application/json');
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        created.push(body);
        const id = `cs_test_${created.length}_${Date.now()}`;
        res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` }));
        return;
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const key = req.headers['idempotency-key'];
        refunds.push({ body, idempotencyKey: Array.isArray(key) ? key[0] : key });
        res.end(JSON.stringify({ id: `re_${refunds.length}`, object: 'refund', status: 'succeeded' }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    created,
    refunds,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('discounts and refunds with Stripe', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>;
  let counter = 0;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestApp({
      env: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_refunds',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      },
    });
    bookId = await featuredBookId(t.app);
    admin = await adminAgent(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = (event: Record<string, unknown>) => {
    const payload = JSON.stringify({ object: 'event', ...event });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  };

  /** A reader checks out (optionally with a code) and Stripe reports the session paid. */
  async function paidOnStripe(format: string, discountCode?: string) {
    counter += 1;
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.post('/api/checkout', { bookId, format, ...(discountCode ? { discountCode } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
    const paymentIntent = `pi_test_${counter}_${Date.now()}`;
    const webhook = await deliver({
      id: `evt_paid_${counter}_${Date.now()}`,
      type: 'checkout.session.completed',
      data: {
        object: {
          id: session.providerSessionId,
          object: 'checkout.session',
          client_reference_id: session.id,
          metadata: { checkoutId: session.id },
          amount_total: session.amount,
          currency: 'gbp',
          payment_status: 'paid',
          payment_intent: paymentIntent,
          customer_details: { name: 'Ada Reader', email: user.email },
        },
      },
    });
    expect(webhook.statusCode).toBe(200);
    return { user, agent, session, paymentIntent, lineItem: stripe.created.at(-1)! };
  }

  const chargeRefunded = (paymentIntent: string, refunded = true) =>
    deliver({
      id: `evt_refund_${++counter}_${Date.now()}`,
      type: 'charge.refunded',
      data: { object: { id: `ch_${counter}`, object: 'charge', payment_intent: paymentIntent, refunded, amount: 999, amount_refunded: refunded ? 999 : 100, metadata: {} } },
    });
  const rowsOf = (userId: number) => t.database.db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(purchases.id);
  const refundMails = (email: string) =>
    t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, 'refund')));

  it('the Stripe line item carries the discounted price, and the purchase records what was paid', async () => {
    const code = await admin.agent.post('/api/admin/discounts', { code: 'STRIPE20', percentOff: 20 });
    expect(code.statusCode).toBe(201);
    const { user, lineItem } = await paidOnStripe('audiobook', 'stripe20');
    expect(lineItem.get('line_items[0][price_data][unit_amount]')).toBe('1199');
    const [row] = await rowsOf(user.id);
    expect(row).toMatchObject({ format: 'audiobook', price: 1199, status: 'completed' });
  });

  it('the admin refund calls Stripe once with the payment; the charge.refunded that follows changes nothing', async () => {
    const { user, agent, paymentIntent } = await paidOnStripe('ebook');
    const [row] = await rowsOf(user.id);
    const res = await admin.agent.post(`/api/admin/orders/${row.id}/refund`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'refunded', refundedBy: admin.admin.username });
    const sent = stripe.refunds.at(-1)!;
    expect(sent.body.get('payment_intent')).toBe(paymentIntent);
    expect(sent.idempotencyKey).toBe(`refund-purchase-${row.id}`);

    expect((await chargeRefunded(paymentIntent)).statusCode).toBe(200);
    const [after] = await rowsOf(user.id);
    expect(after.refundedBy).toBe(admin.admin.id);
    expect(await refundMails(user.email)).toHaveLength(1);
    expect((await agent.get('/api/library/books')).json()).toEqual([]);
  });

  it('a signed charge.refunded refunds the purchase and what it paid for, once; partial refunds do not', async () => {
    const before = (await admin.agent.get('/api/dashboard/stats')).json().salesStats;
    const { user, agent, paymentIntent } = await paidOnStripe('hardcover');
    expect((await agent.get('/api/library/books')).json()).toHaveLength(1);

    expect((await chargeRefunded(paymentIntent, false)).statusCode).toBe(200);
    expect((await rowsOf(user.id)).map((r) => r.status)).toEqual(['completed', 'completed']);

    const refunds = stripe.refunds.length;
    expect((await chargeRefunded(paymentIntent)).statusCode).toBe(200);
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => [r.kind, r.status, r.refundedBy])).toEqual([
      ['paid', 'refunded', null],
      ['included', 'refunded', null],
    ]);
    expect(rows[0].refundedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect((await agent.get('/api/library/books')).json()).toEqual([]);
    expect(await refundMails(user.email)).toHaveLength(1);
    // The provider already gave the money back: it is not asked again.
    expect(stripe.refunds.length).toBe(refunds);
    const after = (await admin.agent.get('/api/dashboard/stats')).json().salesStats;
    expect(after.totalRevenue).toBe(before.totalRevenue);
    expect(after.totalSales).toBe(before.totalSales);

    // Stripe sends the event again: nothing more happens; the admin sees it refunded (by nobody here).
    expect((await chargeRefunded(paymentIntent)).statusCode).toBe(200);
    expect(await refundMails(user.email)).toHaveLength(1);
    const order = (await admin.agent.get(`/api/admin/orders?q=${rows[0].orderReference}`)).json().items[0];
    expect(order).toMatchObject({ status: 'refunded', refundedBy: null });
    expect((await admin.agent.post(`/api/admin/orders/${rows[0].id}/refund`)).statusCode).toBe(409);
  });

  it('a code used up before the Stripe payment: no purchase, the payment refunded at once, the buyer told', async () => {
    const code = await admin.agent.post('/api/admin/discounts', { code: 'ONLYONE', amountOff: 200, maxRedemptions: 1 });
    expect(code.statusCode).toBe(201);
    // Both readers start their checkout while the use is still free; both pay.
    const first = await createUser(t.database);
    const second = await createUser(t.database);
    for (const u of [first, second]) {
      const res = await (await signedInAgent(t.app, u.id)).post('/api/checkout', { bookId, format: 'ebook', discountCode: 'ONLYONE' });
      expect(res.statusCode, res.body).toBe(200);
    }
    const pay = async (userId: number, pi: string) => {
      const [s] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId));
      const event = {
        id: `evt_ranout_${userId}`,
        type: 'checkout.session.completed',
        data: {
          object: {
            id: s.providerSessionId,
            object: 'checkout.session',
            metadata: { checkoutId: s.id },
            amount_total: 799,
            currency: 'gbp',
            payment_status: 'paid',
            payment_intent: pi,
          },
        },
      };
      expect((await deliver(event)).statusCode).toBe(200);
      return { session: s, event };
    };
    await pay(first.id, 'pi_first_ranout');
    const { session, event } = await pay(second.id, 'pi_second_ranout');

    expect(await rowsOf(first.id)).toHaveLength(1);
    expect(await rowsOf(second.id)).toHaveLength(0);
    const [closed] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
    expect(closed.status).toBe('cancelled');
    const refund = stripe.refunds.at(-1)!;
    expect(refund.body.get('payment_intent')).toBe('pi_second_ranout');
    expect(refund.idempotencyKey).toBe(`discount-ran-out-${session.id}`);
    const told = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, second.email), eq(mailOutbox.kind, 'discount-ran-out')));
    expect(told).toHaveLength(1);
    // A redelivery refunds nothing twice (Stripe's idempotency key) and mails nobody again.
    const refunds = stripe.refunds.length;
    expect((await deliver(event)).statusCode).toBe(200);
    expect(stripe.refunds.length).toBe(refunds);
  });
});
