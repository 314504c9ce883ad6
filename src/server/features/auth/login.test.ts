import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../platform/operations/seed';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../platform/security/sessions';
import { createTestApp, createUser, TestAgent, type TestApp } from '../../test/helpers';
import { INVALID_CREDENTIALS } from './service';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('sign-in, sessions and sign-out', () => {
  let t: TestApp;
  let reader: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    reader = await createUser(t.database, { username: 'MaraQuinn', email: 'Mara.Quinn@Example.com' });
  });
  afterAll(() => t.close());

  it.each([
    ['username as stored', 'MaraQuinn'],
    ['username in another case', 'maraquinn'],
    ['email in another case', 'mara.quinn@example.COM'],
    ['email with surrounding spaces', '  Mara.Quinn@Example.com '],
  ])('signs in by %s', async (_label, username) => {
    const agent = new TestAgent(t.app);
    const res = await agent.post('/api/users/login', { username, password: reader.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ success: true, user: { id: reader.id, role: 'user' }, token: expect.any(String), message: 'Login successful' });
    expect(res.cookies.find((c) => c.name === 'sid')?.value).not.toBe(body.token);
  });

  it('gives the same 401 answer for a wrong password and an unknown account, in about the same time', async () => {
    const wrong = await new TestAgent(t.app).post('/api/users/login', { username: 'MaraQuinn', password: 'Wrong-Password-1' });
    const unknown = await new TestAgent(t.app).post('/api/users/login', { username: 'nobody-here', password: 'Wrong-Password-1' });
    const unknownEmail = await new TestAgent(t.app).post('/api/users/login', { username: 'nobody@example.com', password: 'x' });
    for (const res of [wrong, unknown, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: INVALID_CREDENTIALS, code: 'INVALID_CREDENTIALS' });
    }
    // Both paths run one argon2 verification: their medians stay within a factor of two.
    const time = async (username: string) => {
      const start = performance.now();
      await new TestAgent(t.app).request({
        method: 'POST',
        url: '/api/users/login',
        payload: { username, password: 'Wrong-Password-1' },
        remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      });
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await time('MaraQuinn'));
      unknownTimes.push(await time(`ghost${i}`));
    }
    const ratio = median(known) / median(unknownTimes);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('validates the login form with the login form messages', async () => {
    const agent = new TestAgent(t.app);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ username: '', password: 'x' }, 'username', 'Username or email is required'],
      [{ username: 'bad@email', password: 'x' }, 'username', 'Please enter a valid email address'],
      [{ username: 'someone', password: '' }, 'password', 'Password is required'],
    ];
    for (const [body, field, message] of cases) {
      const res = await agent.post('/api/users/login', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
  });

  it('starts a new session on every sign-in and ends the previous one of the same browser', async () => {
    const agent = new TestAgent(t.app);
    const first = (await agent.post('/api/users/login', { username: 'maraquinn', password: reader.password })).json().token;
    agent.bearer = first;
    const second = (await agent.post('/api/users/login', { username: 'maraquinn', password: reader.password })).json().token;
    expect(second).not.toBe(first);
    const old = new TestAgent(t.app);
    old.bearer = first;
    expect((await old.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
  });

  it('logout ends the session on the server for both the cookie and the bearer', async () => {
    const agent = new TestAgent(t.app);
    const token = (await agent.post('/api/users/login', { username: 'MaraQuinn', password: reader.password })).json().token;
    const cookie = agent.cookies.get('sid')!;
    agent.bearer = token;
    // Signing out with the bearer alone also ends the cookie: they are one session.
    const res = await agent.post('/api/users/logout', undefined, { auth: 'bearer' });
    expect(res.json()).toEqual({ success: true, message: 'Logged out successfully' });

    const viaBearer = new TestAgent(t.app);
    viaBearer.bearer = token;
    expect((await viaBearer.get('/api/users/check-auth')).json()).toEqual({ isAuthenticated: false, user: null });
    const viaCookie = new TestAgent(t.app);
    viaCookie.cookies.set('sid', cookie);
    expect((await viaCookie.get('/api/users/check-auth')).json()).toEqual({ isAuthenticated: false, user: null });
    expect((await viaCookie.get(`/api/users/${reader.id}`)).statusCode).toBe(401);

    // And the other way round: a cookie sign-out ends the bearer.
    const second = new TestAgent(t.app);
    const token2 = (await second.post('/api/users/login', { username: 'MaraQuinn', password: reader.password })).json().token;
    const out = await second.post('/api/users/logout', undefined, { auth: 'cookie' });
    expect(out.cookies.find((c) => c.name === 'sid')?.value).toBe('');
    const bearer2 = new TestAgent(t.app);
    bearer2.bearer = token2;
    expect((await bearer2.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
  });

  it('check-auth never answers 401; check-admin tells admins apart', async () => {
    const anon = new TestAgent(t.app);
    const res = await anon.get('/api/users/check-auth');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ isAuthenticated: false, user: null });
    expect(res.headers['cache-control']).toBe('no-store');
    const bogus = new TestAgent(t.app);
    bogus.bearer = 'not-a-real-token';
    expect((await bogus.get('/api/users/check-auth')).statusCode).toBe(200);
    expect((await anon.get('/api/users/check-admin')).json()).toEqual({ isAuthenticated: false, isAdmin: false });

    const user = new TestAgent(t.app);
    await user.post('/api/users/login', { username: 'MaraQuinn', password: reader.password });
    expect((await user.get('/api/users/check-admin')).json()).toEqual({ isAuthenticated: true, isAdmin: false });
    const admin = await createUser(t.database, { role: 'admin' });
    const adminAgent = new TestAgent(t.app);
    const login = await adminAgent.post('/api/users/login', { username: admin.username, password: admin.password });
    expect(login.json().user.role).toBe('admin');
    expect((await adminAgent.get('/api/users/check-admin')).json()).toEqual({ isAuthenticated: true, isAdmin: true });
  });

  it('sessions expire after the idle limit and after the absolute limit', async () => {
    const agent = new TestAgent(t.app);
    await agent.post('/api/users/login', { username: 'MaraQuinn', password: reader.password });
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await agent.get('/api/users/check-auth')).json().isAuthenticated).toBe(true);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    expect((await agent.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);

    const busy = new TestAgent(t.app);
    await busy.post('/api/users/login', { username: 'MaraQuinn', password: reader.password });
    // Used every day, it still ends at the absolute limit.
    for (let used = 0; used < SESSION_ABSOLUTE_MS - 86_400_000; used += 86_400_000) {
      t.clock.advance(86_400_000);
      expect((await busy.get('/api/users/check-auth')).json().isAuthenticated).toBe(true);
    }
    t.clock.advance(2 * 86_400_000);
    expect((await busy.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
  });

  it('every account route that changes something demands the CSRF token (403 CSRF_ERROR)', async () => {
    const agent = new TestAgent(t.app);
    await agent.fetchCsrf();
    const routes = [
      '/api/users/register',
      '/api/users/login',
      '/api/users/logout',
      '/api/users/forgot-password',
      '/api/users/reset-password',
      `/api/users/${reader.id}/change-password`,
    ];
    for (const url of routes) {
      const missing = await agent.post(url, {}, { csrf: false });
      expect(missing.statusCode, url).toBe(403);
      expect(missing.json().code).toBe('CSRF_ERROR');
      const wrong = await agent.post(url, {}, { csrf: false, headers: { 'x-csrf-token': 'forged' } });
      expect(wrong.statusCode, url).toBe(403);
      expect(wrong.json().code).toBe('CSRF_ERROR');
    }
  });
});

describe('sessions over HTTPS', () => {
  it('uses a Secure, __Host- prefixed cookie when PUBLIC_URL is https', async () => {
    const t = await createTestApp({ seed: false, env: { PUBLIC_URL: 'https://book.example.com' } });
    try {
      const user = await createUser(t.database);
      const agent = new TestAgent(t.app);
      const res = await agent.post('/api/users/login', { username: user.username, password: user.password });
      const cookie = res.cookies.find((c) => c.name === '__Host-sid');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      expect((cookie as { domain?: string }).domain).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('the operator’s admin (ADMIN_*)', () => {
  it('signs in with role admin', async () => {
    const t = await createTestApp({ seed: false });
    try {
      await seed(t.database.db, t.app.deps.files, {
        admin: { username: 'author', email: 'author@example.com', password: 'Operator-Chosen-1' },
      });
      const res = await new TestAgent(t.app).post('/api/users/login', { username: 'AUTHOR', password: 'Operator-Chosen-1' });
      expect(res.json().user.role).toBe('admin');
    } finally {
      await t.close();
    }
  });
});
