import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOUNT_REFUSALS } from '@shared/schemas/discounts';
import { discountCodes, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId } from '../checkout/test-support';

/** Real concurrency needs a real server: PGlite runs one statement at a time. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('discount code uses under concurrency (PostgreSQL)', () => {
  let one: TestApp;
  let two: TestApp;
  let bookId: number;

  beforeAll(async () => {
    one = await createTestApp();
    // A second instance on the same database, as behind a load balancer.
    two = await createTestApp({ database: one.database });
    bookId = await featuredBookId(one.app);
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  it('with a maximum of N uses, N+10 concurrent paid checkouts give exactly N discounted purchases', async () => {
    const N = 5;
    const { agent: admin } = await adminAgent(one);
    const created = await admin.post('/api/admin/discounts', { code: 'RUSH', percentOff: 25, maxRedemptions: N });
    expect(created.statusCode, created.body).toBe(201);

    const buyers = await Promise.all(
      Array.from({ length: N + 10 }, async (_, i) => {
        const user = await createUser(one.database);
        const agent = await signedInAgent(i % 2 ? two.app : one.app, user.id);
        const res = await agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: 'rush' });
        expect(res.statusCode, res.body).toBe(200);
        return { user, agent, sessionId: res.json().url.split('/').pop() as string };
      }),
    );
    const answers = await Promise.all(buyers.map((b) => b.agent.post(`/api/checkout/sessions/${b.sessionId}/pay`)));

    const paid = answers.filter((a) => a.statusCode === 200 && a.json().status === 'completed');
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(paid).toHaveLength(N);
    expect(refused).toHaveLength(10);
    expect(refused.every((a) => a.json().message === DISCOUNT_REFUSALS.ranOut)).toBe(true);

    const discounted = await one.database.db.select().from(purchases).where(eq(purchases.price, 749));
    expect(discounted.filter((p) => buyers.some((b) => b.user.id === p.userId))).toHaveLength(N);
    const [code] = await one.database.db.select().from(discountCodes).where(eq(discountCodes.id, created.json().id));
    expect(code.redemptions).toBe(N);
  });
});
