import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_LINK_VALIDITY_MS } from '@shared/constants';
import { createTestApp, createUser, TestAgent, type TestApp } from '../../test/helpers';
import { parseResetLink, waitForOutbox } from './test-support';

let ipCounter = 0;
const freshIp = () => `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

describe('GET /api/users/reset-password/status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  async function requestLink(email: string, count = 1) {
    await new TestAgent(t.app).request({ method: 'POST', url: '/api/users/forgot-password', payload: { email }, remoteAddress: freshIp() });
    const mails = await waitForOutbox(t.database.db, email, 'password-reset', count);
    return parseResetLink(mails[0].text); // newest first
  }

  const status = (query: Record<string, string>, remoteAddress = freshIp()) =>
    t.app.inject({ method: 'GET', url: `/api/users/reset-password/status?${new URLSearchParams(query).toString()}`, remoteAddress });

  const reset = (link: { email: string; token: string }) =>
    new TestAgent(t.app).request({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { email: link.email, token: link.token, newPassword: 'Lantern-Harbour-77!' },
      remoteAddress: freshIp(),
    });

  it('a fresh link is valid; the answer is only { valid } and is never stored', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    const res = await status({ email: link.email, token: link.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: true });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('a used link, an expired link and a link replaced by a newer one are invalid', async () => {
    const user = await createUser(t.database);
    const used = await requestLink(user.email);
    expect((await reset(used)).statusCode).toBe(200);
    expect((await status({ email: used.email, token: used.token })).json()).toEqual({ valid: false });

    const other = await createUser(t.database);
    const older = await requestLink(other.email);
    const newer = await requestLink(other.email, 2);
    expect((await status({ email: older.email, token: older.token })).json()).toEqual({ valid: false });
    expect((await status({ email: newer.email, token: newer.token })).json()).toEqual({ valid: true });
    t.clock.advance(RESET_LINK_VALIDITY_MS + 1000);
    expect((await status({ email: newer.email, token: newer.token })).json()).toEqual({ valid: false });
  });

  it('says the same for a wrong token, another address and an address with no account', async () => {
    const user = await createUser(t.database);
    const link = await requestLink(user.email);
    for (const query of [
      { email: link.email, token: `${link.token}x` },
      { email: 'someone-else@example.com', token: link.token },
      { email: 'nobody@example.com', token: 'made-up-token' },
    ]) {
      const res = await status(query);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ valid: false });
    }
    // The address is matched without regard to case, as the reset itself does.
    expect((await status({ email: link.email.toUpperCase(), token: link.token })).json()).toEqual({ valid: true });
  });

  it('refuses a missing or oversized token with 400 in the one error shape', async () => {
    const missing = await status({ email: 'a@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: expect.any(String) });
    expect((await status({ email: 'a@example.com', token: 'x'.repeat(201) })).statusCode).toBe(400);
  });

  it('is limited per IP like the reset itself (20 per 15 minutes)', async () => {
    const ip = '10.99.0.1';
    for (let i = 0; i < 20; i += 1) expect((await status({ email: 'a@example.com', token: 't' }, ip)).statusCode).toBe(200);
    const refused = await status({ email: 'a@example.com', token: 't' }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: expect.any(String) });
  });
});
