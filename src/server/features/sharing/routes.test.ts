import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { POINTS } from '@shared/constants';
import { userActivities } from '../../db/schema';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';

describe('POST /api/social-share', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const activities = (userId: number) =>
    t.database.db.select().from(userActivities).where(eq(userActivities.userId, userId));

  it('lets an anonymous visitor share, without points', async () => {
    const res = await new TestAgent(t.app).post('/api/social-share', { platform: 'x' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, pointsAwarded: 0, message: 'Thanks for sharing on X!' });
  });

  it('awards points once per platform per day and records every share', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const first = await agent.post('/api/social-share', { platform: 'facebook' });
    expect(first.json()).toMatchObject({ success: true, pointsAwarded: POINTS.share });
    const again = await agent.post('/api/social-share', { platform: 'facebook' });
    expect(again.json()).toMatchObject({ success: true, pointsAwarded: 0 });
    const other = await agent.post('/api/social-share', { platform: 'linkedin' });
    expect(other.json().pointsAwarded).toBe(POINTS.share);

    t.clock.advance(24 * 60 * 60 * 1000);
    const nextDay = await agent.post('/api/social-share', { platform: 'facebook' });
    expect(nextDay.json().pointsAwarded).toBe(POINTS.share);

    const rows = await activities(user.id);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.type === 'share')).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.points, 0)).toBe(3 * POINTS.share);
  });

  it('rejects an unknown platform', async () => {
    const res = await new TestAgent(t.app).post('/api/social-share', { platform: 'myspace' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { platform: expect.any(String) } });
  });

  it('limits shares per IP with 429', async () => {
    const agent = new TestAgent(t.app);
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      last = (
        await agent.request({ method: 'POST', url: '/api/social-share', payload: { platform: 'x' }, remoteAddress: '10.7.7.7' })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('POST /api/social-share under concurrency (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('awards once when 10 shares race', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    await agent.fetchCsrf();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        agent.request({ method: 'POST', url: '/api/social-share', payload: { platform: 'x' }, remoteAddress: `10.3.0.${i}` }),
      ),
    );
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(answers.filter((r) => r.json().pointsAwarded > 0)).toHaveLength(1);
  });
});
