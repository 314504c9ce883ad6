import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, createUser, TestAgent, type TestApp } from '../../test/helpers';
import { LIMITS } from './limits';

const login = (t: TestApp, ip: string, username: string, password: string) =>
  new TestAgent(t.app).request({ method: 'POST', url: '/api/users/login', payload: { username, password }, remoteAddress: ip });
const forgot = (t: TestApp, ip: string, email: string) =>
  new TestAgent(t.app).request({ method: 'POST', url: '/api/users/forgot-password', payload: { email }, remoteAddress: ip });

describe('abuse limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it('limits failed sign-ins per IP with a clear 429 that expires with its window', async () => {
    const user = await createUser(t.database);
    const ip = '203.0.113.1';
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i += 1) {
      expect((await login(t, ip, `someone${i}`, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    const blocked = await login(t, ip, user.username, user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(blocked.json().message).toMatch(/^Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is unaffected, and the account itself is not locked.
    expect((await login(t, '203.0.113.2', user.username, user.password)).statusCode).toBe(200);
    t.clock.advance(LIMITS.loginFailuresPerIp.windowMs + 1000);
    expect((await login(t, ip, user.username, user.password)).statusCode).toBe(200);
  });

  it('holds under a burst of parallel guesses: never more failures checked than the limit', async () => {
    const user = await createUser(t.database);
    const ip = '203.0.113.77';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => login(t, ip, user.username, 'Wrong-Pass-1')),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(LIMITS.loginFailuresPerIp.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(30 - LIMITS.loginFailuresPerIp.max);
  });

  it('does not count successful sign-ins against the address', async () => {
    const user = await createUser(t.database);
    const ip = '203.0.113.88';
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max + 5; i += 1) {
      expect((await login(t, ip, user.username, user.password)).statusCode).toBe(200);
    }
  });

  it('limits failed sign-ins per account across addresses, the same for unknown names, and only for a while', async () => {
    const user = await createUser(t.database);
    for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i += 1) {
      // Alternate username and email: both count against the one account.
      const name = i % 2 ? user.username.toUpperCase() : user.email;
      expect((await login(t, `198.51.100.${i}`, name, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    const blocked = await login(t, '198.51.100.200', user.username, user.password);
    expect(blocked.statusCode).toBe(429);
    const other = await createUser(t.database);
    expect((await login(t, '198.51.100.201', other.username, other.password)).statusCode).toBe(200);

    // An unknown name behaves the same way, so the limit reveals nothing about which accounts exist.
    for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i += 1) {
      await login(t, `192.0.2.${i}`, 'no-such-reader', 'Wrong-Pass-1');
    }
    expect((await login(t, '192.0.2.250', 'no-such-reader', 'Wrong-Pass-1')).statusCode).toBe(429);

    t.clock.advance(LIMITS.loginFailuresPerAccount.windowMs + 1000);
    expect((await login(t, '198.51.100.202', user.username, user.password)).statusCode).toBe(200);
  });

  it('limits forgot-password per account and per IP, for known and unknown addresses alike', async () => {
    const user = await createUser(t.database);
    for (const email of [user.email, 'unknown-reader@example.com']) {
      for (let i = 0; i < LIMITS.forgotPerAccount.max; i += 1) {
        expect((await forgot(t, `100.64.0.${i}`, email)).statusCode).toBe(200);
      }
      const blocked = await forgot(t, '100.64.0.99', email.toUpperCase());
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many password reset requests\. Please wait \d+ minutes? and try again\.$/);
    }
    const ip = '100.64.1.1';
    for (let i = 0; i < LIMITS.forgotPerIp.max; i += 1) {
      expect((await forgot(t, ip, `spray${i}@example.com`)).statusCode).toBe(200);
    }
    expect((await forgot(t, ip, 'spray-more@example.com')).statusCode).toBe(429);
    t.clock.advance(LIMITS.forgotPerAccount.windowMs + 1000);
    expect((await forgot(t, ip, 'spray-more@example.com')).statusCode).toBe(200);
    expect((await forgot(t, '100.64.0.100', user.email)).statusCode).toBe(200);
  });
});

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

describe.skipIf(!(await redisAvailable()))('abuse limits across instances (Redis)', () => {
  it('counts failed sign-ins from both instances against one limit', async () => {
    const database = await createTestDatabase();
    // A run-specific key prefix: fresh databases reuse user ids, and old counts must not leak in.
    const keyPrefix = `test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`;
    const redisA = new Redis(redisUrl, { keyPrefix });
    const redisB = new Redis(redisUrl, { keyPrefix });
    const a = await createTestApp({ seed: false, database, redis: redisA });
    const b = await createTestApp({ seed: false, database, redis: redisB });
    try {
      const user = await createUser(database, { username: `shared_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}` });
      const ip = `172.16.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i += 1) {
        const instance = i % 2 ? a : b;
        expect((await login(instance, ip, user.username, 'Wrong-Pass-1')).statusCode).toBe(401);
      }
      expect((await login(a, ip, user.username, user.password)).statusCode).toBe(429);
      expect((await login(b, ip, user.username, user.password)).statusCode).toBe(429);
    } finally {
      await b.close();
      await a.close();
      await database.drop();
      const keys = await redisA.keys(`${keyPrefix}*`);
      if (keys.length) await redisA.del(...keys.map((k) => k.slice(keyPrefix.length)));
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});
