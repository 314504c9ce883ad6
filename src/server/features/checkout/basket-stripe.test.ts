import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, mailOutbox, orders, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, postStripeWebhook, signStripe, startFakeStripe, stripeCheckoutSession, stripeEnv, stripeEvent } from './test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_baskets';

describe('a basket paid through Stripe', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    let sessions = 0;
    stripe = await startFakeStripe(({ method, url }) => {
      if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_basket_${++sessions}`;
        return { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` };
      }
      if (method === 'POST' && url.pathname === '/v1/refunds') return { id: `re_${Date.now()}`, object: 'refund', status: 'succeeded' };
      return undefined;
    });
    t = await createTestApp({ env: stripeEnv(stripe.url, WEBHOOK_SECRET) });
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = (type: string, object: Record<string, unknown>) => {
    const payload = stripeEvent(type, object);
    return postStripeWebhook(t.app, payload, signStripe(payload, WEBHOOK_SECRET, t.clock.now()));
  };
  const createdSessions = () => stripe.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/v1/checkout/sessions');
  const refundRequests = () => stripe.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/v1/refunds');

  async function basketOnStripe(paymentIntent: string) {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    expect((await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 })).statusCode).toBe(200);
    expect((await agent.post('/api/basket/items', { bookId, format: 'audiobook' })).statusCode).toBe(200);
    const res = await agent.post('/api/checkout/basket', { shippingCountry: 'IE' });
    expect(res.statusCode, res.body).toBe(200);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
    expect(res.json().url).toBe(`https://checkout.stripe.test/${session.providerSessionId}`);
    return { user, agent, session, request: createdSessions().at(-1)!, paymentIntent };
  }

  const paid = (s: { session: typeof checkoutSessions.$inferSelect; paymentIntent: string; user: { email: string } }) =>
    deliver(
      'checkout.session.completed',
      stripeCheckoutSession(
        { id: s.session.id, providerSessionId: s.session.providerSessionId! },
        {
          amount_total: s.session.amount,
          payment_intent: s.paymentIntent,
          customer_details: { name: 'Ada Reader', email: s.user.email },
          collected_information: { shipping_details: { name: 'Ada Reader', address: { line1: '1 Quay', city: 'Cork', country: 'IE' } } },
        },
      ),
    );

  it('sends one Checkout Session with a line item per line, quantities and unit prices from the server', async () => {
    const { request, session } = await basketOnStripe('pi_basket_1');
    const body = request.body;
    expect(body.get('line_items[0][quantity]')).toBe('2');
    expect(body.get('line_items[0][price_data][unit_amount]')).toBe('2499');
    expect(body.get('line_items[0][price_data][currency]')).toBe('gbp');
    expect(body.get('line_items[0][price_data][product_data][name]')).toMatch(/ \(Hardcover\)$/);
    expect(body.get('line_items[1][quantity]')).toBe('1');
    expect(body.get('line_items[1][price_data][unit_amount]')).toBe('1499');
    expect(body.get('line_items[1][price_data][product_data][name]')).toMatch(/ \(Audiobook\)$/);
    expect(body.has('line_items[2][quantity]')).toBe(false);
    // Print is shipped: only to the country the reader chose.
    expect(body.get('shipping_address_collection[allowed_countries][0]')).toBe('IE');
    expect(body.has('shipping_address_collection[allowed_countries][1]')).toBe(false);
    expect(body.get('metadata[checkoutId]')).toBe(session.id);
    expect(body.get('client_reference_id')).toBe(session.id);
    expect(request.idempotencyKey).toBe(`checkout-${session.id}`);
    expect(session.amount).toBe(2 * 2499 + 1499);
  });

  it("fulfils every line on Stripe's signed event, once, and a full charge.refunded takes every line back", async () => {
    const s = await basketOnStripe('pi_basket_2');
    expect((await paid(s)).statusCode).toBe(200);
    expect((await paid(s)).statusCode).toBe(200);
    const rows = await t.database.db.select().from(purchases).where(eq(purchases.userId, s.user.id)).orderBy(purchases.id);
    expect(rows.filter((r) => r.kind === 'paid').map((r) => [r.format, r.quantity, r.price])).toEqual([
      ['hardcover', 2, 4998],
      ['audiobook', 1, 1499],
    ]);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, s.user.id));
    expect(order.paidAt).not.toBeNull();
    const receipts = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, s.user.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipts).toHaveLength(1);

    const refund = await deliver('charge.refunded', { id: 'ch_basket_2', object: 'charge', payment_intent: 'pi_basket_2', refunded: true, metadata: {} });
    expect(refund.statusCode).toBe(200);
    const after = await t.database.db.select().from(purchases).where(eq(purchases.userId, s.user.id));
    expect(after.every((r) => r.status === 'refunded')).toBe(true);
    expect((await s.agent.get('/api/library/books')).json()).toEqual([]);
  });

  it("an admin refund of one line gives back that line's amount at Stripe, and only that line", async () => {
    const s = await basketOnStripe('pi_basket_3');
    expect((await paid(s)).statusCode).toBe(200);
    const [audiobook] = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, s.user.id), eq(purchases.format, 'audiobook')));
    const { agent: admin } = await adminAgent(t);
    const res = await admin.post(`/api/admin/orders/${audiobook.id}/refund`);
    expect(res.statusCode, res.body).toBe(200);
    const sent = refundRequests().at(-1)!;
    expect(sent.body.get('payment_intent')).toBe('pi_basket_3');
    expect(sent.body.get('amount')).toBe('1499');
    const rows = await t.database.db.select().from(purchases).where(eq(purchases.userId, s.user.id));
    expect(rows.find((r) => r.format === 'audiobook')!.status).toBe('refunded');
    expect(rows.find((r) => r.format === 'hardcover')!.status).toBe('completed');
  });
});
