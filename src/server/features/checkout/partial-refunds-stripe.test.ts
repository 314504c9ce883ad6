import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, mailOutbox, purchases, refunds } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, postStripeWebhook, signStripe, startFakeStripe, stripeCheckoutSession, stripeEnv, stripeEvent } from './test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_partial_refunds';

describe('partial refunds through Stripe (decision 0082)', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>;
  let counter = 0;

  beforeAll(async () => {
    let sessions = 0;
    stripe = await startFakeStripe(({ method, url }) => {
      if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_partial_${++sessions}`;
        return { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` };
      }
      if (method === 'POST' && url.pathname === '/v1/refunds') return { id: `re_partial_${Date.now()}`, object: 'refund', status: 'succeeded' };
      return undefined;
    });
    t = await createTestApp({ env: stripeEnv(stripe.url, WEBHOOK_SECRET) });
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
  const refundRequests = () => stripe.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/v1/refunds');
  const rowsOf = (userId: number) => t.database.db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(purchases.id);
  const revenue = async () => (await admin.agent.get('/api/dashboard/stats')).json().salesStats.totalRevenue as number;
  const charge = (paymentIntent: string, amount: number, amountRefunded: number, id?: string) =>
    deliver('charge.refunded', { id: `ch_${++counter}`, object: 'charge', payment_intent: paymentIntent, amount, amount_refunded: amountRefunded, refunded: amountRefunded >= amount, metadata: {} }, id);

  /** A basket of an audiobook and an e-book, paid on Stripe. */
  async function paidBasket() {
    counter += 1;
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    await agent.post('/api/basket/items', { bookId, format: 'audiobook' });
    await agent.post('/api/basket/items', { bookId, format: 'ebook' });
    expect((await agent.post('/api/checkout/basket', {})).statusCode).toBe(200);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
    const paymentIntent = `pi_partial_${counter}`;
    const done = await deliver(
      'checkout.session.completed',
      stripeCheckoutSession({ id: session.id, providerSessionId: session.providerSessionId! }, { amount_total: session.amount, payment_intent: paymentIntent, customer_details: { name: 'Ada Reader', email: user.email } }),
    );
    expect(done.statusCode).toBe(200);
    const rows = await rowsOf(user.id);
    return { user, agent, session, paymentIntent, audiobook: rows.find((r) => r.format === 'audiobook')!, ebook: rows.find((r) => r.format === 'ebook')! };
  }

  it("records a charge.refunded of less than the whole payment, shared over the lines; a redelivery or a repeat of the total adds nothing", async () => {
    const o = await paidBasket();
    const before = await revenue();
    const total = o.session.amount;
    const event = `evt_partial_${counter}`;
    const res = await charge(o.paymentIntent, total, 1000, event);
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf(o.user.id);
    const given = rows.reduce((s, r) => s + r.refundedAmount, 0);
    expect(given).toBe(1000);
    // In proportion: the audiobook's share is its price's share of the payment.
    // Audiobook £14.99 and e-book £9.99 of £24.98: £6.00 and £3.99, the leftover penny on the first line.
    expect([o.audiobook.price, o.ebook.price]).toEqual([1499, 999]);
    expect(rows.find((r) => r.id === o.audiobook.id)!.refundedAmount).toBe(601);
    expect(rows.find((r) => r.id === o.ebook.id)!.refundedAmount).toBe(399);
    expect(rows.every((r) => r.status === 'completed')).toBe(true);
    expect(await revenue()).toBe(before - 1000);
    const recorded = await t.database.db.select().from(refunds).where(eq(refunds.purchaseId, o.audiobook.id));
    expect(recorded).toMatchObject([{ source: 'provider', whole: false, createdBy: null }]);

    expect((await charge(o.paymentIntent, total, 1000, event)).statusCode).toBe(200);
    expect((await charge(o.paymentIntent, total, 1000)).statusCode).toBe(200);
    expect(await revenue()).toBe(before - 1000);
    expect((await rowsOf(o.user.id)).reduce((s, r) => s + r.refundedAmount, 0)).toBe(1000);

    // The rest refunded at Stripe: every line goes, each mailed once as a whole refund.
    expect((await charge(o.paymentIntent, total, total)).statusCode).toBe(200);
    const after = await rowsOf(o.user.id);
    expect(after.filter((r) => r.kind === 'paid').map((r) => [r.status, r.refundedAmount === r.price])).toEqual([['refunded', true], ['refunded', true]]);
    expect(await revenue()).toBe(before - total);
    expect((await o.agent.get('/api/library/books')).json()).toEqual([]);
    const mails = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, o.user.email), eq(mailOutbox.kind, 'refund')));
    expect(mails).toHaveLength(2);
  });

  it('an admin amount refund asks Stripe for that amount, once; its charge.refunded that follows is already recorded', async () => {
    const o = await paidBasket();
    const sent = refundRequests().length;
    const res = await admin.agent.post(`/api/admin/orders/${o.audiobook.id}/refund`, { amount: 250 });
    expect(res.statusCode, res.body).toBe(200);
    expect(refundRequests()).toHaveLength(sent + 1);
    const request = refundRequests().at(-1)!;
    expect(request.body.get('payment_intent')).toBe(o.paymentIntent);
    expect(request.body.get('amount')).toBe('250');
    expect(request.idempotencyKey).toBe(`refund-purchase-${o.audiobook.id}-0-250`);
    expect((await charge(o.paymentIntent, o.session.amount, 250)).statusCode).toBe(200);
    expect(await t.database.db.select().from(refunds).where(eq(refunds.purchaseId, o.ebook.id))).toEqual([]);
    expect((await rowsOf(o.user.id)).find((r) => r.id === o.audiobook.id)!.refundedAmount).toBe(250);

    // The e-book line whole, by lineId on the audiobook's row: that line's amount.
    const found = (await admin.agent.get(`/api/admin/orders?q=${o.ebook.orderReference}`)).json().items as Array<{ id: number; lineId: number | null }>;
    const line = found.find((i) => i.id === o.ebook.id)!.lineId!;
    const whole = await admin.agent.post(`/api/admin/orders/${o.audiobook.id}/refund`, { lineId: line });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(refundRequests().at(-1)!.body.get('amount')).toBe(String(o.ebook.price));
    expect((await o.agent.get('/api/library/books')).json().map((b: { format: string }) => b.format)).toEqual(['audiobook']);
  });
});
