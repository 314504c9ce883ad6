import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_LINK_VALIDITY_MS } from '@shared/constants';
import { users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';
import { COMMON_PASSWORD_MESSAGE } from './common-passwords';
import { INVALID_RESET_LINK } from './reset-service';
import { FORGOT_PASSWORD_ANSWER } from './routes';
import { outboxFor, parseResetLink, waitForOutbox } from './test-support';

const NEW_PASSWORD = 'Lantern-Harbour-77!';
let ipCounter = 0;
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

describe('forgot and reset password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { PUBLIC_URL: 'https://book.example.com' } });
  });
  afterAll(() => t.close());

  async function forgot(email: string, headers: Record<string, string> = {}) {
    return new TestAgent(t.app).request({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email },
      headers,
      remoteAddress: freshIp(),
    });
  }

  async function requestLink(email: string, count = 1) {
    await forgot(email);
    const [mail] = await waitForOutbox(t.database.db, email, 'password-reset', count);
    return parseResetLink(mail.text);
  }

  async function reset(body: { email: string; token: string; newPassword: string }) {
    return new TestAgent(t.app).request({ method: 'POST', url: '/api/users/reset-password', payload: body, remoteAddress: freshIp() });
  }

  it('answers known and unknown addresses with the same status and body, in about the same time', async () => {
    const user = await createUser(t.database);
    const times = { known: [] as number[], unknown: [] as number[] };
    // Seven of each, interleaved: the median of seven shrugs off a pause of the machine that three did not
    // (an address's own mail cap is 10 an hour, so seven stay within it).
    const samples = 7;
    for (let i = 0; i < samples; i += 1) {
      for (const [kind, email] of [
        ['known', user.email],
        ['unknown', `ghost${i}@example.com`],
      ] as const) {
        const start = performance.now();
        const res = await forgot(email);
        times[kind].push(performance.now() - start);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(FORGOT_PASSWORD_ANSWER);
        // A known address's mail is prepared after the answer; let that finish so it does not slow the
        // next sample and pass for a difference between the two kinds of address.
        if (kind === 'known') await waitForOutbox(t.database.db, user.email, 'password-reset', i + 1);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(samples / 2)];
    expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(25);
    expect(await outboxFor(t.database.db, 'ghost0@example.com')).toHaveLength(0);
  });

  it('mails PUBLIC_URL/reset-password?token&email (never the Host header) with a 256-bit token stored only hashed', async () => {
    const user = await createUser(t.database);
    await forgot(user.email, { host: 'evil.example.net', 'x-forwarded-host': 'evil.example.net' });
    const [mail] = await waitForOutbox(t.database.db, user.email, 'password-reset');
    const link = parseResetLink(mail.text);
    expect(link.url.origin + link.url.pathname).toBe('https://book.example.com/reset-password');
    expect(link.email).toBe(user.email);
    expect(Buffer.from(link.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(mail.html).toContain('https://book.example.com/reset-password?token=');
    expect(mail.text + mail.html).not.toContain('evil.example.net');
    expect(mail.text).toContain('1 hour');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.resetTokenHash).toBe(sha256(link.token));
    expect(row.resetTokenHash).not.toContain(link.token);
  });

  it('resets once: the token works a single time, ends every session and queues a notice', async () => {
    const user = await createUser(t.database);
    const phone = await signedInAgent(t.app, user.id);
    const laptop = await signedInAgent(t.app, user.id);
    const link = await requestLink(user.email);

    const res = await reset({ email: link.email, token: link.token, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    for (const agent of [phone, laptop]) {
      expect((await agent.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
    }
    const login = (password: string) =>
      new TestAgent(t.app).request({ method: 'POST', url: '/api/users/login', payload: { username: user.username, password }, remoteAddress: freshIp() });
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(user.password)).statusCode).toBe(401);
    expect(await outboxFor(t.database.db, user.email, 'password-changed')).toHaveLength(1);

    const again = await reset({ email: link.email, token: link.token, newPassword: 'Another-Fine-Pass-8' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVALID_RESET_LINK);
  });

  it('lets two racing uses of one link succeed only once', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    const results = await Promise.all([
      reset({ email: link.email, token: link.token, newPassword: 'Racing-Pass-One-1' }),
      reset({ email: link.email, token: link.token, newPassword: 'Racing-Pass-Two-2' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('expires after 60 minutes (injected clock)', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    t.clock.advance(RESET_LINK_VALIDITY_MS - 1000);
    t.clock.advance(2000);
    const res = await reset({ email: link.email, token: link.token, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(INVALID_RESET_LINK);
  });

  it('works just before the hour is up', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    t.clock.advance(RESET_LINK_VALIDITY_MS - 1000);
    expect((await reset({ email: link.email, token: link.token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('is invalidated by a newer request', async () => {
    const user = await createUser(t.database);
    const first = await requestLink(user.email, 1);
    const second = await requestLink(user.email, 2);
    expect(second.token).not.toBe(first.token);
    expect((await reset({ email: user.email, token: first.token, newPassword: NEW_PASSWORD })).statusCode).toBe(400);
    expect((await reset({ email: user.email, token: second.token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('is invalidated by a password change', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    const agent = await signedInAgent(t.app, user.id);
    const change = await agent.post(`/api/users/${user.id}/change-password`, {
      currentPassword: user.password,
      newPassword: 'Changed-In-Profile-5',
    });
    expect(change.statusCode).toBe(200);
    expect((await reset({ email: user.email, token: link.token, newPassword: NEW_PASSWORD })).statusCode).toBe(400);
  });

  it('needs the matching email: a token is no good for another account', async () => {
    const user = await createUser(t.database);
    const other = await createUser(t.database);
    const link = await requestLink(user.email);
    expect((await reset({ email: other.email, token: link.token, newPassword: NEW_PASSWORD })).statusCode).toBe(400);
    expect((await reset({ email: user.email.toUpperCase(), token: link.token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it.each([
    ['', 'Password is required'],
    ['Ab1!', 'Password must be at least 8 characters long'],
    ['lowercase1!', 'Password must contain at least one uppercase letter'],
    ['UPPERCASE1!', 'Password must contain at least one lowercase letter'],
    ['NoNumbers!!', 'Password must contain at least one number'],
    ['NoSpecial123', 'Password must contain at least one special character'],
  ])('refuses %j with the reset form message', async (newPassword, message) => {
    const res = await reset({ email: 'x@example.com', token: 'whatever', newPassword });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, fields: { newPassword: message } });
  });

  it('refuses a most-common password', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    const res = await reset({ email: user.email, token: link.token, newPassword: 'P@ssw0rd1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(COMMON_PASSWORD_MESSAGE);
    // The refusal did not use up the link.
    expect((await reset({ email: user.email, token: link.token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('serves the reset page with Referrer-Policy: no-referrer (and only that page)', async () => {
    const page = await t.app.inject({ url: '/reset-password?token=abc&email=a%40b.co' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const login = await t.app.inject({ url: '/login' });
    expect(login.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
