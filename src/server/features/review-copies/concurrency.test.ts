import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_COPY_MESSAGES } from '@shared/schemas/review-copies';
import { purchases, reviewApplications } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId } from '../checkout/test-support';

const DAY = 24 * 60 * 60_000;

/**
 * Real concurrency needs a real server: PGlite runs one statement at a time. Two instances on one database
 * take applications to a campaign that approves automatically while the author approves in bulk; the
 * campaign row's lock keeps the copies given to the number the campaign has (decision 0099).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('review copies under concurrency (PostgreSQL)', () => {
  let one: TestApp;
  let two: TestApp;
  let bookId: number;
  let admin: TestAgent;
  let ip = 0;

  beforeAll(async () => {
    one = await createTestApp();
    two = await createTestApp({ database: one.database });
    bookId = await featuredBookId(one.app);
    admin = (await adminAgent(one)).agent;
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  async function campaign(slug: string, autoApprove: boolean, copies: number) {
    const now = one.clock.now().getTime();
    const res = await admin.post('/api/admin/review-copies', {
      bookId, format: 'ebook', slug, opensAt: new Date(now - DAY).toISOString(), closesAt: new Date(now + 30 * DAY).toISOString(),
      copies, question: 'Why this book?', autoApprove, reminderDays: 7,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as Array<{ id: number; slug: string }>).find((c) => c.slug === slug)!.id;
  }
  const applyTo = (app: TestApp, slug: string, n: number) =>
    new TestAgent(app.app).request({
      method: 'POST',
      url: `/api/review-copies/${slug}/apply`,
      payload: { name: `Critic ${n}`, email: `race-${slug}-${n}@example.com`, reviewsWhere: 'My blog', answer: 'Because.' },
      remoteAddress: `10.77.${Math.floor(++ip / 250)}.${ip % 250}`,
    });
  const copiesOf = async (campaignId: number) =>
    (await one.database.db.select().from(reviewApplications).where(and(eq(reviewApplications.campaignId, campaignId), eq(reviewApplications.status, 'approved')))).length;
  const libraryRows = async (campaignId: number) =>
    (await one.database.db.select().from(purchases).where(and(eq(purchases.kind, 'review_copy'), eq(purchases.bookId, bookId)))).filter((p) => p.orderReference.startsWith(`RC-${campaignId}-`)).length;

  it('twelve applications at once to an automatic campaign of 3 copies approve exactly 3; the rest hear it is full', async () => {
    const slug = 'race-auto';
    const id = await campaign(slug, true, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => applyTo(n % 2 ? two : one, slug, n)));
    const approved = answers.filter((a) => a.statusCode === 201);
    expect(approved).toHaveLength(3);
    expect(approved.map((a) => a.json().message)).toEqual(Array(3).fill(REVIEW_COPY_MESSAGES.approvedAtOnce));
    for (const refused of answers.filter((a) => a.statusCode !== 201)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(REVIEW_COPY_MESSAGES.full);
    }
    expect(await copiesOf(id)).toBe(3);
    expect(await libraryRows(id)).toBe(3);
  });

  it('a bulk approval on one instance and the same bulk approval on the other give out no more than the copies', async () => {
    const slug = 'race-bulk';
    const id = await campaign(slug, false, 4);
    for (let n = 0; n < 10; n += 1) expect((await applyTo(one, slug, n)).statusCode).toBe(201);
    const ids = (await one.database.db.select({ id: reviewApplications.id }).from(reviewApplications).where(eq(reviewApplications.campaignId, id))).map((r) => r.id);
    const otherAdmin = (await adminAgent(two)).agent;
    const [a, b] = await Promise.all([admin.post(`/api/admin/review-copies/${id}/decide`, { ids, decision: 'approve' }), otherAdmin.post(`/api/admin/review-copies/${id}/decide`, { ids: [...ids].reverse(), decision: 'approve' })]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(a.json().approved + b.json().approved).toBe(4);
    expect(await copiesOf(id)).toBe(4);
    expect(await libraryRows(id)).toBe(4);
  });
});
