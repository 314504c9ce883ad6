import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, digitalAssets, purchases } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { buy, featuredBookId, startCheckout } from '../checkout/test-support';

/** Real concurrency needs a real server: PGlite runs one statement at a time. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrency on PostgreSQL', () => {
  let one: TestApp;
  let two: TestApp;
  let bookId: number;
  let assetId: number;

  beforeAll(async () => {
    one = await createTestApp();
    // A second instance on the same database, as behind a load balancer.
    two = await createTestApp({ database: one.database });
    bookId = await featuredBookId(one.app);
    const [asset] = await one.database.db
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'ebook')));
    assetId = asset.id;
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  async function ebookBuyer() {
    const user = await createUser(one.database);
    const agent = await signedInAgent(one.app, user.id);
    await buy(agent, bookId, 'ebook');
    return { user, agent };
  }
  const downloadCount = async (userId: number) =>
    (
      await one.database.db
        .select()
        .from(purchases)
        .where(and(eq(purchases.userId, userId), eq(purchases.format, 'ebook')))
    )[0].downloadCount;

  it('50 parallel download requests give exactly one link and downloadCount 1', async () => {
    const { user, agent } = await ebookBuyer();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => agent.get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 403)).toHaveLength(49);
    expect(answers.filter((a) => a.statusCode === 403).every((a) => a.json().message.includes('Download limit'))).toBe(true);
    expect(await downloadCount(user.id)).toBe(1);
  });

  it('the same 50 requests split across two app instances give one success', async () => {
    const { user, agent } = await ebookBuyer();
    const other = new TestAgent(two.app);
    other.bearer = agent.bearer;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? other : agent).get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(await downloadCount(user.id)).toBe(1);
  });

  it('10 concurrent payments of one checkout (on two instances) record one purchase', async () => {
    const user = await createUser(one.database);
    const agent = await signedInAgent(one.app, user.id);
    const other = new TestAgent(two.app);
    other.bearer = agent.bearer;
    const sessionId = await startCheckout(agent, bookId, 'ebook');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? other : agent).post(`/api/checkout/sessions/${sessionId}/pay`, undefined, { auth: 'bearer' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.every((a) => a.json().status === 'completed')).toBe(true);
    // One paid e-book, and the one PDF edition that comes with it.
    const rows = await one.database.db.select().from(purchases).where(eq(purchases.userId, user.id));
    const paid = rows.filter((row) => row.kind === 'paid');
    expect(paid).toHaveLength(1);
    expect(paid[0].format).toBe('ebook');
    expect(rows.filter((row) => row.kind === 'included')).toEqual([
      expect.objectContaining({ format: 'pdf', paidByPurchaseId: paid[0].id }),
    ]);
    expect(rows).toHaveLength(2);
    const [session] = await one.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(session).toMatchObject({ status: 'completed', purchaseId: paid[0].id });
  });
});
