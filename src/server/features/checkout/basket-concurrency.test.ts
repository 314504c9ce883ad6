import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, orderLines, orders } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { featuredBookId, startFakeStripe, stripeEnv } from './test-support';

/** Real concurrency needs a real server: PGlite runs one statement at a time. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('one basket submitted at once many times (PostgreSQL)', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let one: TestApp;
  let two: TestApp;
  let bookId: number;

  beforeAll(async () => {
    let sessions = 0;
    stripe = await startFakeStripe(({ method, url }) => {
      if (method !== 'POST' || url.pathname !== '/v1/checkout/sessions') return undefined;
      const id = `cs_test_race_${++sessions}`;
      return { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` };
    });
    one = await createTestApp({ env: stripeEnv(stripe.url, 'whsec_race') });
    // A second instance on the same database, as behind a load balancer.
    two = await createTestApp({ database: one.database, env: stripeEnv(stripe.url, 'whsec_race') });
    bookId = await featuredBookId(one.app);
  });
  afterAll(async () => {
    await two.close();
    await one.close();
    await stripe.close();
  });

  it('gives one order and one payment for 10 concurrent checkouts of the same basket on two instances', async () => {
    const user = await createUser(one.database);
    const agents = [await signedInAgent(one.app, user.id), await signedInAgent(two.app, user.id)];
    expect((await agents[0].post('/api/basket/items', { bookId, format: 'paperback', quantity: 3 })).statusCode).toBe(200);
    expect((await agents[1].post('/api/basket/items', { bookId, format: 'ebook' })).statusCode).toBe(200);

    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => agents[i % 2].post('/api/checkout/basket', {})));
    const started = answers.filter((a) => a.statusCode === 200);
    const waiting = answers.filter((a) => a.statusCode === 409);
    expect(started.length + waiting.length, answers.map((a) => a.body).join('\n')).toBe(10);
    expect(started.length).toBeGreaterThan(0);
    expect(waiting.every((a) => a.json().code === 'CHECKOUT_IN_PROGRESS')).toBe(true);
    expect(new Set(started.map((a) => a.json().url)).size).toBe(1);

    const sessions = await one.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
    expect(sessions).toHaveLength(1);
    const userOrders = await one.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(userOrders).toHaveLength(1);
    expect(await one.database.db.select().from(orderLines).where(eq(orderLines.orderId, userOrders[0].id))).toHaveLength(2);
    expect(stripe.requests.filter((r) => r.url.pathname === '/v1/checkout/sessions')).toHaveLength(1);

    // Asked again once the first is ready, the same basket answers the same payment page.
    const later = await agents[1].post('/api/checkout/basket', {});
    expect(later.json().url).toBe(started[0].json().url);
  });
});
