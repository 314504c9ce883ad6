import { and, eq } from 'drizzle-orm';
import { checkoutSessions, jobs, mailOutbox, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser } from '../../test/helpers';
import { RECONCILE_JOB, reconcilePayments } from './reconcile';
import { featuredBookId, postStripeWebhook, signStripe, startFakeStripe, stripeCheckoutSession, stripeEnv, stripeEvent } from './test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_reconciliation';

/**
 * Stripe, as far as reconciliation asks it: GET /v1/checkout/sessions lists the sessions the test says
 * Stripe holds, filtered as the SDK asked.
 */
async function startStripeWithSessions() {
  const sessions: Array<Record<string, unknown>> = [];
  const stripe = await startFakeStripe(({ method, url }) => {
    if (method !== 'GET' || url.pathname !== '/v1/checkout/sessions') return undefined;
    const gte = Number(url.searchParams.get('created[gte]'));
    const status = url.searchParams.get('status');
    const data = sessions.filter((s) => (s.created as number) >= gte && (!status || s.status === status));
    return { object: 'list', url: '/v1/checkout/sessions', has_more: false, data };
  });
  return { ...stripe, sessions };
}

describe('reconciliation with Stripe', () => {
  let stripe: Awaited<ReturnType<typeof startStripeWithSessions>>;
  let t: TestApp;
  let bookId: number;
  let counter = 0;

  beforeAll(async () => {
    stripe = await startStripeWithSessions();
    t = await createTestApp({
      env: stripeEnv(stripe.url, WEBHOOK_SECRET),
    });
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  /** A checkout the buyer paid on Stripe: our session is still open, and Stripe lists it as paid. */
  async function paidOnStripe(options: { paymentStatus?: string; createdAgoMs?: number } = {}) {
    counter += 1;
    const user = await createUser(t.database);
    const id = `co_rec_${counter}_${Date.now()}`;
    const providerSessionId = `cs_test_rec_${counter}_${Date.now()}`;
    const created = t.clock.now();
    await t.database.db.insert(checkoutSessions).values({
      id,
      userId: user.id,
      bookId,
      format: 'ebook',
      amount: 999,
      currency: 'GBP',
      provider: 'stripe',
      providerSessionId,
      status: 'open',
      createdAt: created,
      expiresAt: new Date(created.getTime() + 3_600_000),
    });
    const session = stripeCheckoutSession(
      { id, providerSessionId },
      {
        created: Math.floor((created.getTime() - (options.createdAgoMs ?? 0)) / 1000),
        status: 'complete',
        payment_status: options.paymentStatus ?? 'paid',
        customer_details: { name: 'Ada Reader', email: user.email },
      },
    );
    stripe.sessions.push(session);
    return { user, id, session };
  }

  // The rows the buyer paid for: the PDF edition that comes with the e-book is a row of its own (decision 0066).
  const purchasesOf = (userId: number) =>
    t.database.db.select().from(purchases).where(and(eq(purchases.userId, userId), eq(purchases.kind, 'paid')));
  const receiptsTo = (email: string) =>
    t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, 'receipt')));

  function deliverWebhook(session: Record<string, unknown>) {
    const payload = stripeEvent('checkout.session.completed', session);
    return postStripeWebhook(t.app, payload, signStripe(payload, WEBHOOK_SECRET, t.clock.now()));
  }


  it('fulfils a paid session whose webhook never arrived: one purchase, one receipt, also after the late webhook', async () => {
    const paid = await paidOnStripe();
    const first = await reconcilePayments(t.app.deps);
    expect(first.repaired).toBe(1);
    expect(first.checked).toBeGreaterThanOrEqual(1);

    // The SDK asked for completed sessions of the last 48 hours.
    const asked = stripe.requests.at(-1)!.url;
    expect(asked.pathname).toBe('/v1/checkout/sessions');
    expect(asked.searchParams.get('status')).toBe('complete');
    expect(Number(asked.searchParams.get('created[gte]'))).toBe(Math.floor(t.clock.now().getTime() / 1000) - 48 * 3600);

    const rows = await purchasesOf(paid.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ format: 'ebook', price: 999, status: 'completed' });
    expect(first.repairedOrders).toEqual([rows[0].orderReference]);
    expect(await receiptsTo(paid.user.email)).toHaveLength(1);

    // A second run repairs nothing.
    expect((await reconcilePayments(t.app.deps)).repaired).toBe(0);

    // The webhook arrives after all: acknowledged, and nothing more is recorded or sent.
    const late = await deliverWebhook(paid.session);
    expect(late.statusCode, late.body).toBe(200);
    expect(await purchasesOf(paid.user.id)).toHaveLength(1);
    expect(await receiptsTo(paid.user.email)).toHaveLength(1);
  });

  it('leaves alone a session the webhook already fulfilled, and an unpaid one', async () => {
    const viaWebhook = await paidOnStripe();
    expect((await deliverWebhook(viaWebhook.session)).statusCode).toBe(200);
    const unpaid = await paidOnStripe({ paymentStatus: 'unpaid' });
    const report = await reconcilePayments(t.app.deps);
    expect(report.repaired).toBe(0);
    expect(await purchasesOf(viaWebhook.user.id)).toHaveLength(1);
    expect(await receiptsTo(viaWebhook.user.email)).toHaveLength(1);
    expect(await purchasesOf(unpaid.user.id)).toHaveLength(0);
  });

  it('runs on the job runner: once across two instances, its report kept on the job', async () => {
    const paid = await paidOnStripe();
    const second = await createTestApp({
      database: t.database,
      seed: false,
      clock: t.clock,
      env: stripeEnv(stripe.url, WEBHOOK_SECRET),
    });
    try {
      await t.app.deps.jobs.ensureRecurring({ runNow: [RECONCILE_JOB] });
      await second.app.deps.jobs.ensureRecurring({ runNow: [RECONCILE_JOB] });
      const runs = await Promise.all([t.app.deps.jobs.runDue(), second.app.deps.jobs.runDue()]);
      expect(runs[0] + runs[1]).toBe(1);
      const [job] = await t.database.db.select().from(jobs).where(eq(jobs.key, RECONCILE_JOB));
      expect(job.lastResult).toMatchObject({ repaired: 1 });
      expect(job.runAt.getTime()).toBe(t.clock.now().getTime() + 10 * 60_000);
      expect(await purchasesOf(paid.user.id)).toHaveLength(1);
      // Not due again until ten minutes have passed.
      expect(await t.app.deps.jobs.runDue()).toBe(0);
    } finally {
      await second.close();
    }
  });
});
