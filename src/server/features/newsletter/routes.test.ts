import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { POINTS } from '@shared/constants';
import { mailOutbox, newsletterSubscribers, userActivities, users } from '../../db/schema';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';

async function subscribersFor(t: TestApp, email: string) {
  return t.database.db
    .select()
    .from(newsletterSubscribers)
    .where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`);
}

async function welcomeMails(t: TestApp, email: string) {
  const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter-welcome'));
  return rows.filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

let ip = 0;
const nextIp = () => `10.2.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`;
const post = (agent: TestAgent, body: unknown) =>
  agent.request({ method: 'POST', url: '/api/subscribe', payload: body as object, remoteAddress: nextIp() });

describe('POST /api/subscribe', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://www.example.com' } });
  });
  afterAll(async () => t.close());

  it('subscribes once: again (in another case) is not an error and adds no row or mail', async () => {
    const agent = new TestAgent(t.app);
    const first = await post(agent, { email: 'Reader.One@Example.com', name: '' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: expect.stringContaining('Welcome'), pointsEarned: 0 });
    const again = await post(agent, { email: 'reader.one@example.COM', name: '' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: expect.stringContaining('already subscribed'), pointsEarned: 0 });
    expect(await subscribersFor(t, 'reader.one@example.com')).toHaveLength(1);
    expect(await welcomeMails(t, 'reader.one@example.com')).toHaveLength(1);
  });

  it('refuses a list of addresses, so a signup can never mail anyone else', async () => {
    const agent = new TestAgent(t.app);
    for (const email of ['a@b.co,victim@example.com', 'a@b.co;x@y.zz', 'a@b.co victim@example.com', '"x"@b.co']) {
      const res = await post(agent, { email, name: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Please enter a valid email address' });
    }
    const rows = await t.database.db.select().from(mailOutbox).where(sql`${mailOutbox.to} like '%victim%'`);
    expect(rows).toHaveLength(0);
  });

  it('mails a welcome whose one-click unsubscribe link and List-Unsubscribe headers work', async () => {
    const email = 'leaver@example.com';
    await post(new TestAgent(t.app), { email, name: '' });
    const [mail] = await welcomeMails(t, email);
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const headerLink = /^<(.+)>$/.exec(mail.headers?.['List-Unsubscribe'] ?? '')?.[1];
    expect(headerLink).toMatch(/^https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?/);
    expect(mail.text).toContain(headerLink!);
    expect(mail.html).toContain(headerLink!.replace(/&/g, '&amp;'));

    const url = new URL(headerLink!);
    const tampered = await t.app.inject({ url: `${url.pathname}?email=${encodeURIComponent('other@example.com')}&token=${url.searchParams.get('token')}` });
    expect(tampered.statusCode).toBe(400);

    // Opening the link (as a mail scanner would) only asks.
    const opened = await t.app.inject({ url: url.pathname + url.search });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toContain('text/html');
    expect(opened.body).toContain('Leave the Thriller Circle?');
    expect((await subscribersFor(t, email))[0].unsubscribedAt).toBeNull();
    const action = /<form method="post" action="([^"]+)">/.exec(opened.body)![1].replace(/&amp;/g, '&');

    // Pressing the page's button unsubscribes and answers a page.
    const clicked = await t.app.inject({
      method: 'POST',
      url: action,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: '',
    });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.headers['content-type']).toContain('text/html');
    expect(clicked.body).toContain('You have been unsubscribed');
    expect((await subscribersFor(t, email))[0].unsubscribedAt).not.toBeNull();

    // Joining again revives the one row and sends a fresh welcome.
    const back = await post(new TestAgent(t.app), { email, name: '' });
    expect(back.json().message).toContain('Welcome');
    const rows = await subscribersFor(t, email);
    expect(rows).toHaveLength(1);
    expect(rows[0].unsubscribedAt).toBeNull();
    expect(await welcomeMails(t, email)).toHaveLength(2);

    // RFC 8058: the mail client posts a form body, without any CSRF token.
    const oneClick = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toMatchObject({ success: true });
    expect((await subscribersFor(t, email))[0].unsubscribedAt).not.toBeNull();
  });

  it('sets isSubscribed and awards the points once for a signed-in reader', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const first = await post(agent, { email: user.email, name: '' });
    expect(first.json().pointsEarned).toBe(POINTS.subscribe);
    expect(first.json().message).toContain(`${POINTS.subscribe} points`);
    const again = await post(agent, { email: user.email, name: '' });
    expect(again.json().pointsEarned).toBe(0);
    const other = await post(agent, { email: `second-${user.email}`, name: '' });
    expect(other.json().pointsEarned).toBe(0);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.isSubscribed).toBe(true);
    const awards = await t.database.db.select().from(userActivities).where(eq(userActivities.userId, user.id));
    expect(awards).toHaveLength(1);
    expect(awards[0]).toMatchObject({ type: 'newsletter-subscribe', points: POINTS.subscribe });
  });

  it.each(['', 'no-at-sign', 'a@b', 'a b@c.d'])('rejects the invalid email %j', async (email) => {
    const res = await post(new TestAgent(t.app), { email, name: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Please enter a valid email address' });
  });

  it('limits subscriptions per IP with 429', async () => {
    const agent = new TestAgent(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await agent.request({
        method: 'POST',
        url: '/api/subscribe',
        payload: { email: `flood${i}@example.com`, name: '' },
        remoteAddress: '10.8.8.8',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('POST /api/subscribe under concurrency (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('20 concurrent subscriptions of one address make one row, one mail and one award', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    await agent.fetchCsrf();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(agent, { email: i % 2 ? 'Racer@Example.com' : 'racer@example.com', name: '' })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await subscribersFor(t, 'racer@example.com')).toHaveLength(1);
    expect(await welcomeMails(t, 'racer@example.com')).toHaveLength(1);
    expect(answers.filter((r) => r.json().pointsEarned === POINTS.subscribe)).toHaveLength(1);
    const awards = await t.database.db.select().from(userActivities).where(eq(userActivities.userId, user.id));
    expect(awards).toHaveLength(1);
  });
});
