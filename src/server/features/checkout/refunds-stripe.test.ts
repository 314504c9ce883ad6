import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, mailOutbox, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, postStripeWebhook, signStripe, startFakeStripe, stripeCheckoutSession, stripeEnv, stripeEvent } from './test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_refunds';

/** Stripe, as far as checkout and refunds ask it: it creates Checkout Sessions and refunds. */
async function startStripeForRefunds() {
  const created: URLSearchParams[] = [];
  const refunds: Array<{ body: URLSearchParams; idempotencyKey: string | undefined }> = [];
  const stripe = await startFakeStripe(({ method, url, body, idempotencyKey }) => {
    if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      created.push(body);
      const id = `cs_test_${created.length}_${Date.now()}`;
      return { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` };
    }
    if (method === 'POST' && url.pathname === '/v1/refunds') {
      refunds.push({ body, idempotencyKey });
      return { id: `re_${refunds.length}`, object: 'refund', status: 'succeeded' };
    }
    return undefined;
  });
  return { ...stripe, created, refunds };
}

describe('discounts and refunds with Stripe', () => {
  let stripe: Awaited<ReturnType<typeof startStripeForRefunds>>;
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>;
  let counter = 0;

  beforeAll(async () => {
    stripe = await startStripeForRefunds();
    t = await createTestApp({
      env: stripeEnv(stripe.url, WEBHOOK_SECRET),
    });
    bookId = await featuredBookId(t.app);
    admin = await adminAgent(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = (type: string, object: Record<string, unknown>, id?: string) => {
    const payload = stripeEvent(type, object, id);
    return postStripeWebhook(t.app, payload, signStripe(payload, WEBHOOK_SECRET, t.clock.now()));
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
    const webhook = await deliver(
      'checkout.session.completed',
      stripeCheckoutSession(
        { id: session.id, providerSessionId: session.providerSessionId! },
        { amount_total: session.amount, payment_intent: paymentIntent, customer_details: { name: 'Ada Reader', email: user.email } },
      ),
    );
    expect(webhook.statusCode).toBe(200);
    return { user, agent, session, paymentIntent, lineItem: stripe.created.at(-1)! };
  }

  const chargeRefunded = (paymentIntent: string, refunded = true) =>
    deliver('charge.refunded', { id: `ch_${++counter}`, object: 'charge', payment_intent: paymentIntent, refunded, amount: 999, amount_refunded: refunded ? 999 : 100, metadata: {} });
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
    // The included e-book and the PDF edition that comes with it (decision 0066).
    expect((await agent.get('/api/library/books')).json()).toHaveLength(2);

    expect((await chargeRefunded(paymentIntent, false)).statusCode).toBe(200);
    expect((await rowsOf(user.id)).map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);

    const refunds = stripe.refunds.length;
    expect((await chargeRefunded(paymentIntent)).statusCode).toBe(200);
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => [r.kind, r.status, r.refundedBy])).toEqual([
      ['paid', 'refunded', null],
      ['included', 'refunded', null],
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
      const paid = stripeCheckoutSession({ id: s.id, providerSessionId: s.providerSessionId! }, { amount_total: 799, payment_intent: pi });
      const event = ['checkout.session.completed', paid, `evt_ranout_${userId}`] as const;
      expect((await deliver(...event)).statusCode).toBe(200);
      return { session: s, event };
    };
    await pay(first.id, 'pi_first_ranout');
    const { session, event } = await pay(second.id, 'pi_second_ranout');

    // The first reader's e-book and its PDF edition; nothing for the second.
    expect((await rowsOf(first.id)).map((r) => r.format)).toEqual(['ebook', 'pdf']);
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
    expect((await deliver(...event)).statusCode).toBe(200);
    expect(stripe.refunds.length).toBe(refunds);
  });
});
