import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, mailOutbox, newsletterSubscribers } from '../../db/schema';
import { createTestApp, TestAgent, type TestApp } from '../../test/helpers';
import { SQLSTATE, refusal } from '../../test/sqlstate';
import { adminAgent } from '../admin/test-fixtures';

const WELCOME = 'Welcome to the Thriller Circle! Check your inbox for a welcome email.';

let ip = 0;
const nextIp = () => `10.3.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`;

describe('double opt-in of the Thriller Circle (decision 0069)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://www.example.com' } });
  });
  afterAll(async () => t.close());

  const subscribe = (body: object) =>
    new TestAgent(t.app).request({ method: 'POST', url: '/api/subscribe', payload: body, remoteAddress: nextIp() });
  const confirm = (body: unknown) =>
    new TestAgent(t.app).request({ method: 'POST', url: '/api/newsletter/confirm', payload: body as object, remoteAddress: nextIp() });
  const rowOf = async (email: string) => {
    const [row] = await t.database.db.select().from(newsletterSubscribers).where(sql`lower(${newsletterSubscribers.email}) = ${email}`);
    return row;
  };
  const mailsTo = async (email: string) =>
    (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter-welcome'))).filter((m) => m.to === email);
  /** The confirmation link of the latest welcome mail to `email`, checked to be the same in text and HTML. */
  const confirmLinkOf = async (email: string) => {
    const mails = await mailsTo(email);
    const mail = mails[mails.length - 1];
    const link = /Confirm your subscription: (\S+)/.exec(mail.text)?.[1];
    expect(link).toMatch(/^https:\/\/www\.example\.com\/newsletter\/confirm\?token=[A-Za-z0-9_-]{40,}$/);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('>Confirm your subscription</a>');
    return new URL(link!);
  };

  it('a sign-up is unconfirmed, from the home page, with the subscribe answer unchanged, and its mail links to the confirm page', async () => {
    const res = await subscribe({ email: 'new.reader@example.com', name: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: WELCOME, pointsEarned: 0 });
    const row = await rowOf('new.reader@example.com');
    expect(row).toMatchObject({ state: 'unconfirmed', source: 'home', confirmedAt: null });
    const link = await confirmLinkOf('new.reader@example.com');
    const token = link.searchParams.get('token')!;
    // Only a hash is kept, and not a bare sha256 of the token either (it is bound to its purpose).
    expect(row.confirmTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.confirmTokenExpiresAt?.toISOString()).toBe('2026-12-05T12:00:00.000Z');
  });

  it('opening the link (as a mail scanner does) changes nothing; only the button confirms, and again is harmless', async () => {
    const email = 'scanned@example.com';
    await subscribe({ email, name: '' });
    const link = await confirmLinkOf(email);
    const token = link.searchParams.get('token')!;
    for (const url of [
      link.pathname + link.search,
      `/api/newsletter/confirm?token=${token}`,
      `/api/newsletter/confirm/${token}`,
    ]) {
      const opened = await t.app.inject({ method: 'GET', url });
      expect(opened.statusCode).toBe(url.startsWith('/newsletter') ? 200 : 404);
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(url.startsWith('/newsletter') ? 200 : 404);
    }
    expect(await rowOf(email)).toMatchObject({ state: 'unconfirmed', confirmedAt: null });

    const first = await confirm({ token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'confirmed', message: 'Your subscription to the Thriller Circle is confirmed. Thank you!' });
    const row = await rowOf(email);
    expect(row.state).toBe('confirmed');
    expect(row.confirmedAt?.toISOString()).toBe('2026-11-21T12:00:00.000Z');

    const again = await confirm({ token });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'already', message: 'Your subscription is already confirmed. There is nothing more to do.' });
    expect((await rowOf(email)).confirmedAt?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });

  it('refuses a missing, unknown or malformed token with a clear message and changes nothing', async () => {
    await subscribe({ email: 'untouched@example.com', name: '' });
    const unknown = await confirm({ token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'This confirmation link is not valid. Please use the link from your most recent welcome email, or subscribe again.',
    });
    const empty = await confirm({ token: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'This confirmation link is not complete. Please use the link from your welcome email.',
    });
    for (const body of [{}, { token: 42 }, { token: 'y'.repeat(201) }]) {
      expect((await confirm(body)).statusCode).toBe(400);
    }
    // A hash is not a token: posting the stored value confirms nothing.
    const row = await rowOf('untouched@example.com');
    expect((await confirm({ token: row.confirmTokenHash })).statusCode).toBe(404);
    expect((await rowOf('untouched@example.com')).state).toBe('unconfirmed');
  });

  it('an expired link says so; signing up again sends a fresh link and the old one stops working', async () => {
    const email = 'late@example.com';
    await subscribe({ email, name: '' });
    const oldToken = (await confirmLinkOf(email)).searchParams.get('token')!;
    t.clock.advance(15 * 24 * 60 * 60 * 1000);
    try {
      const expired = await confirm({ token: oldToken });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().message).toBe('This confirmation link has expired. Please subscribe again on the website to get a new one.');
      expect((await rowOf(email)).state).toBe('unconfirmed');

      const again = await subscribe({ email, name: '' });
      expect(again.json()).toEqual({ message: WELCOME, pointsEarned: 0 });
      expect(await mailsTo(email)).toHaveLength(2);
      const newToken = (await confirmLinkOf(email)).searchParams.get('token')!;
      expect(newToken).not.toBe(oldToken);
      expect((await confirm({ token: oldToken })).statusCode).toBe(404);
      expect((await confirm({ token: newToken })).json().status).toBe('confirmed');
    } finally {
      t.clock.set(new Date('2026-11-21T12:00:00Z'));
    }
  });

  it('an unconfirmed address signing up again within the link\'s life gets no second mail', async () => {
    await subscribe({ email: 'twice@example.com', name: '' });
    const again = await subscribe({ email: 'twice@example.com', name: '' });
    expect(again.json().message).toContain('already subscribed');
    expect(await mailsTo('twice@example.com')).toHaveLength(1);
  });

  it('unsubscribing sets the state and voids the confirmation link', async () => {
    const email = 'leaving@example.com';
    await subscribe({ email, name: '' });
    const token = (await confirmLinkOf(email)).searchParams.get('token')!;
    const mail = (await mailsTo(email))[0];
    const unsubscribe = /^<(.+)>$/.exec(mail.headers?.['List-Unsubscribe'] ?? '')![1];
    const url = new URL(unsubscribe);
    const res = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    const row = await rowOf(email);
    expect(row).toMatchObject({ state: 'unsubscribed', confirmTokenHash: null });
    expect(row.unsubscribedAt).not.toBeNull();
    expect((await confirm({ token })).statusCode).toBe(404);
    expect((await rowOf(email)).state).toBe('unsubscribed');
  });

  it('takes the sign-up source from an allowed list and refuses any other, adding nothing', async () => {
    const footer = await subscribe({ email: 'foot@example.com', name: '', source: 'footer' });
    expect(footer.json()).toEqual({ message: WELCOME, pointsEarned: 0 });
    expect((await rowOf('foot@example.com')).source).toBe('footer');
    await subscribe({ email: 'till@example.com', name: '', source: 'checkout' });
    expect((await rowOf('till@example.com')).source).toBe('checkout');
    for (const source of ['import', 'unknown', 'Home', 'elsewhere', 7]) {
      const res = await subscribe({ email: 'sourced@example.com', name: '', source });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Unknown sign-up source' });
    }
    expect(await rowOf('sourced@example.com')).toBeUndefined();
    expect(await mailsTo('sourced@example.com')).toHaveLength(0);
  });

  it('with "Ask new subscribers to confirm" off, new sign-ups are confirmed at once and their mail has no confirm link', async () => {
    const { agent } = await adminAgent(t);
    const current = (await agent.get('/api/admin/settings')).json();
    expect(current.askSubscribersToConfirm).toBe(true);
    const off = await agent.put('/api/admin/settings', { ...current, askSubscribersToConfirm: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().askSubscribersToConfirm).toBe(false);
    expect((await agent.get('/api/admin/settings')).json().askSubscribersToConfirm).toBe(false);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update'));
    expect(entry.details).toEqual({ changed: ['askSubscribersToConfirm'] });
    try {
      const res = await subscribe({ email: 'direct@example.com', name: '' });
      expect(res.json()).toEqual({ message: WELCOME, pointsEarned: 0 });
      const row = await rowOf('direct@example.com');
      expect(row).toMatchObject({ state: 'confirmed', confirmTokenHash: null, confirmTokenExpiresAt: null });
      expect(row.confirmedAt?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
      const [mail] = await mailsTo('direct@example.com');
      expect(mail.text).not.toContain('Confirm your subscription');
      expect(mail.text).not.toContain('/newsletter/confirm');
      expect(mail.html).not.toContain('/newsletter/confirm');
      expect(mail.text).toContain('/api/newsletter/unsubscribe?');
      // Leaving the setting out of a save keeps it as it is.
      const { askSubscribersToConfirm: _omitted, ...rest } = current;
      await agent.put('/api/admin/settings', { ...rest, authorName: current.authorName });
      expect((await agent.get('/api/admin/settings')).json().askSubscribersToConfirm).toBe(false);
      expect((await agent.put('/api/admin/settings', { ...current, askSubscribersToConfirm: 'no' })).statusCode).toBe(400);
    } finally {
      await agent.put('/api/admin/settings', { ...current, askSubscribersToConfirm: true });
    }
    await subscribe({ email: 'back-on@example.com', name: '' });
    expect((await rowOf('back-on@example.com')).state).toBe('unconfirmed');
  });

  it('keeps state and unsubscribed_at in step in the database itself', async () => {
    const refused = { code: SQLSTATE.checkViolation, constraint: 'newsletter_unsubscribed_ck' };
    expect(await refusal(t.database.db.insert(newsletterSubscribers).values({ email: 'odd@example.com', state: 'unsubscribed' }))).toEqual(
      refused,
    );
    expect(
      await refusal(
        t.database.db.insert(newsletterSubscribers).values({ email: 'odd2@example.com', state: 'confirmed', unsubscribedAt: new Date() }),
      ),
    ).toEqual(refused);
  });
});
