import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, paymentEvents, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { featuredBookId, postStripeWebhook, signStripe, stripeCheckoutSession, stripeEvent } from './test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_signing_events';
const STRIPE_ENV = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_offline_never_called',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

describe('Stripe webhook', () => {
  let t: TestApp;
  let bookId: number;
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: STRIPE_ENV });
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  /** A checkout session as POST /api/checkout would have left it after Stripe created its session. */
  async function openSession(format = 'ebook', amount = 999) {
    counter += 1;
    const user = await createUser(t.database);
    const id = `cs_local_${counter}_${Date.now()}`;
    const providerSessionId = `cs_test_${counter}_${Date.now()}`;
    await t.database.db.insert(checkoutSessions).values({
      id,
      userId: user.id,
      bookId,
      format,
      amount,
      currency: 'GBP',
      provider: 'stripe',
      providerSessionId,
      status: 'open',
      createdAt: t.clock.now(),
      expiresAt: new Date(t.clock.now().getTime() + 3_600_000),
    });
    return { user, id, providerSessionId };
  }

  function completedEvent(
    session: { id: string; providerSessionId: string },
    overrides: { amount?: number; currency?: string; eventId?: string; paymentStatus?: string } = {},
  ) {
    const paid = stripeCheckoutSession(session, {
      amount_total: overrides.amount ?? 999,
      currency: overrides.currency ?? 'gbp',
      payment_status: overrides.paymentStatus ?? 'paid',
    });
    return stripeEvent('checkout.session.completed', paid, overrides.eventId);
  }

  const sign = (payload: string, timestampSeconds = Math.floor(t.clock.now().getTime() / 1000), secret = WEBHOOK_SECRET) =>
    signStripe(payload, secret, new Date(timestampSeconds * 1000));

  const deliver = (payload: string, signature?: string) => postStripeWebhook(t.app, payload, signature);

  // The rows the buyer paid for: the PDF edition that comes with the e-book is a row of its own (decision 0066).
  const purchasesOf = (userId: number) =>
    t.database.db.select().from(purchases).where(and(eq(purchases.userId, userId), eq(purchases.kind, 'paid')));
  const eventRow = (payload: string) =>
    t.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, JSON.parse(payload).id));

  it('fulfils a correctly signed checkout.session.completed, without a CSRF token', async () => {
    const session = await openSession();
    const payload = completedEvent(session);
    const res = await deliver(payload, sign(payload));
    expect(res.statusCode, res.body).toBe(200);
    const rows = await purchasesOf(session.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ format: 'ebook', price: 999, status: 'completed' });
  });

  it('the same event delivered twice records one purchase', async () => {
    const session = await openSession();
    const payload = completedEvent(session);
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    expect(await purchasesOf(session.user.id)).toHaveLength(1);
  });

  it('ten concurrent deliveries (same event and distinct events for one session) record one purchase', async () => {
    const session = await openSession();
    const same = completedEvent(session);
    const distinct = Array.from({ length: 5 }, () => completedEvent(session));
    const payloads = [...Array(5).fill(same), ...distinct];
    const answers = await Promise.all(payloads.map((p) => deliver(p, sign(p))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(await purchasesOf(session.user.id)).toHaveLength(1);
  });

  it('refuses a bad signature with 400 and writes nothing', async () => {
    const session = await openSession();
    const payload = completedEvent(session);
    const wrongSecret = await deliver(payload, sign(payload, undefined, 'whsec_someone_else'));
    expect(wrongSecret.statusCode).toBe(400);
    const tampered = await deliver(payload.replace('"amount_total":999', '"amount_total":1'), sign(payload));
    expect(tampered.statusCode).toBe(400);
    const missing = await deliver(payload);
    expect(missing.statusCode).toBe(400);
    expect(await eventRow(payload)).toHaveLength(0);
    expect(await purchasesOf(session.user.id)).toHaveLength(0);
  });

  it('refuses a stale (or future) signature with 400 and writes nothing', async () => {
    const session = await openSession();
    const payload = completedEvent(session);
    const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
    expect((await deliver(payload, sign(payload, nowSeconds - 301))).statusCode).toBe(400);
    expect((await deliver(payload, sign(payload, nowSeconds + 3600))).statusCode).toBe(400);
    expect(await eventRow(payload)).toHaveLength(0);
    expect(await purchasesOf(session.user.id)).toHaveLength(0);
    // Within the 300 s tolerance the same event is accepted.
    expect((await deliver(payload, sign(payload, nowSeconds - 200))).statusCode).toBe(200);
    expect(await purchasesOf(session.user.id)).toHaveLength(1);
  });

  it('does not fulfil when the paid amount or currency differs from the server price', async () => {
    const session = await openSession();
    const cheap = completedEvent(session, { amount: 1 });
    expect((await deliver(cheap, sign(cheap))).statusCode).toBe(200);
    const dollars = completedEvent(session, { currency: 'usd' });
    expect((await deliver(dollars, sign(dollars))).statusCode).toBe(200);
    expect(await purchasesOf(session.user.id)).toHaveLength(0);
    const [row] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
    expect(row.status).toBe('open');
  });

  it('does not fulfil an unpaid completion, and acknowledges unrelated events', async () => {
    const session = await openSession();
    const unpaid = completedEvent(session, { paymentStatus: 'unpaid' });
    expect((await deliver(unpaid, sign(unpaid))).statusCode).toBe(200);
    const other = JSON.stringify({ id: 'evt_other_1', object: 'event', type: 'customer.created', data: { object: {} } });
    expect((await deliver(other, sign(other))).statusCode).toBe(200);
    expect(await purchasesOf(session.user.id)).toHaveLength(0);
  });

  it('without a verified event nothing is granted, and the local Pay endpoint does not exist for Stripe', async () => {
    const session = await openSession('audiobook', 1499);
    const agent = await signedInAgent(t.app, session.user.id);
    expect((await agent.post(`/api/checkout/sessions/${session.id}/pay`)).statusCode).toBe(404);
    expect((await agent.get('/api/library/books')).json()).toEqual([]);
    expect(await purchasesOf(session.user.id)).toHaveLength(0);
  });
});
