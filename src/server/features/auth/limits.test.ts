import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, createUser, redisAvailable, redisUrl, TestAgent, type TestApp } from '../../test/helpers';
import type { MemoryRateCounter } from '../../platform/security/rate-limit';
import { ACCOUNT_DELAY, accountDelayMs, LIMITS } from './limits';
import { FORGOT_PASSWORD_ANSWER } from './routes';
import { waitForOutbox } from './test-support';

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

  it('holds under a burst of parallel guesses: never more failures checked than the limits', async () => {
    const ip = '203.0.113.77';
    // Spread over three names, so the address limit is the one that binds.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(t, ip, `burst-guess-${i % 3}`, 'Wrong-Pass-1')),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(LIMITS.loginFailuresPerIp.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(30 - LIMITS.loginFailuresPerIp.max);

    // On one account from one address, the tighter account-and-address limit binds.
    const user = await createUser(t.database);
    const single = await Promise.all(
      Array.from({ length: 20 }, () => login(t, '203.0.113.78', user.username, 'Wrong-Pass-1')),
    );
    const singleCodes = single.map((a) => a.statusCode);
    expect(singleCodes.filter((c) => c === 401)).toHaveLength(LIMITS.loginFailuresPerAccountIp.max);
    expect(singleCodes.filter((c) => c === 429)).toHaveLength(20 - LIMITS.loginFailuresPerAccountIp.max);
  });

  it('does not count successful sign-ins against the address', async () => {
    const user = await createUser(t.database);
    const ip = '203.0.113.88';
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max + 5; i += 1) {
      expect((await login(t, ip, user.username, user.password)).statusCode).toBe(200);
    }
  });

  it('lets 16 parallel correct sign-ins from one address all in, and leaves the address unlocked', async () => {
    const ip = '203.0.113.99';
    const readers = await Promise.all(Array.from({ length: 3 }, () => createUser(t.database)));
    // Sixteen on one account, more than either limit, and a few more on two others.
    const answers = await Promise.all(
      Array.from({ length: 22 }, (_, i) => {
        const reader = readers[i < 16 ? 0 : 1 + (i % 2)];
        return login(t, ip, reader.username, reader.password);
      }),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(22).fill(200));
    // Nothing was left counted: the address still has its whole allowance of failures.
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i += 1) {
      expect((await login(t, ip, `typo-reader-${i}`, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    expect((await login(t, ip, readers[0].username, readers[0].password)).statusCode).toBe(429);
  });

  it("26 wrong passwords from one address do not stop the owner's correct one from another", async () => {
    const user = await createUser(t.database);
    const other = await createUser(t.database);
    const attacker = '198.18.0.1';
    const answers = [];
    for (let i = 0; i < 26; i += 1) answers.push((await login(t, attacker, user.username, 'Wrong-Pass-1')).statusCode);
    expect(answers.filter((c) => c === 401)).toHaveLength(LIMITS.loginFailuresPerAccountIp.max);
    const started = Date.now();
    expect((await login(t, '198.18.0.2', user.username, user.password)).statusCode).toBe(200);
    // Only the attempts that passed the address checks counted for the account: far from slowing it.
    expect(Date.now() - started).toBeLessThan(2000);
    // The attacking address stays locked out of that account, but not out of others yet.
    expect((await login(t, attacker, user.username, user.password)).statusCode).toBe(429);
    expect((await login(t, attacker, other.username, other.password)).statusCode).toBe(200);
  });

  it('failures from one address lock only that address, and that account only from that address', async () => {
    const alice = await createUser(t.database);
    const bob = await createUser(t.database);
    const nat = '198.18.1.1';
    for (let i = 0; i < LIMITS.loginFailuresPerAccountIp.max; i += 1) {
      expect((await login(t, nat, alice.username, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    const blocked = await login(t, nat, alice.username, alice.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
    // Another reader behind the same address, and Alice from elsewhere, sign in.
    expect((await login(t, nat, bob.username, bob.password)).statusCode).toBe(200);
    expect((await login(t, '198.18.1.2', alice.username, alice.password)).statusCode).toBe(200);

    // Once the address has used up its own limit, it is refused for every account, and others are not.
    for (let i = LIMITS.loginFailuresPerAccountIp.max; i < LIMITS.loginFailuresPerIp.max; i += 1) {
      expect((await login(t, nat, `guess-${i}`, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    expect((await login(t, nat, bob.username, bob.password)).statusCode).toBe(429);
    expect((await login(t, '198.18.1.3', bob.username, bob.password)).statusCode).toBe(200);
  });

  it('slows, but never refuses, an account that failed from many addresses', { timeout: 60_000 }, async () => {
    const user = await createUser(t.database);
    for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i += 1) {
      // Alternate username and email: both count against the one account.
      const name = i % 2 ? user.username.toUpperCase() : user.email;
      expect((await login(t, `198.51.100.${i}`, name, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    let started = Date.now();
    expect((await login(t, '198.51.100.200', user.username, user.password)).statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(accountDelayMs(LIMITS.loginFailuresPerAccount.max) - 50);
    started = Date.now();
    expect((await login(t, '198.51.100.201', user.username, 'Wrong-Pass-1')).statusCode).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ACCOUNT_DELAY.firstMs - 50);

    // An unknown name behaves the same way, so the delay reveals nothing about which accounts exist.
    for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i += 1) {
      await login(t, `192.0.2.${i}`, 'no-such-reader', 'Wrong-Pass-1');
    }
    started = Date.now();
    expect((await login(t, '192.0.2.250', 'no-such-reader', 'Wrong-Pass-1')).statusCode).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ACCOUNT_DELAY.firstMs - 50);

    // The delay grows with further failures and stays bounded.
    expect(accountDelayMs(LIMITS.loginFailuresPerAccount.max * 2)).toBe(ACCOUNT_DELAY.firstMs + ACCOUNT_DELAY.stepMs);
    expect(accountDelayMs(10_000)).toBe(ACCOUNT_DELAY.maxMs);

    t.clock.advance(LIMITS.loginFailuresPerAccount.windowMs + 1000);
    started = Date.now();
    expect((await login(t, '198.51.100.202', user.username, user.password)).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(ACCOUNT_DELAY.firstMs);
  });

  it('an address over its limit adds no counters, however many made-up names it tries', async () => {
    const ip = '198.18.2.1';
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i += 1) await login(t, ip, `made-up-${i}`, 'Wrong-Pass-1');
    const counter = t.app.deps.counter as MemoryRateCounter;
    const before = counter.size;
    for (let i = 0; i < 300; i += 1) {
      expect((await login(t, ip, `made-up-more-${i}`, 'Wrong-Pass-1')).statusCode).toBe(429);
      expect((await forgot(t, '198.18.2.2', `made-up-${i}@example.com`)).statusCode).toBe(i < LIMITS.forgotPerIp.max ? 200 : 429);
    }
    // The password-reset requests that passed made their few keys; refused ones made none.
    expect(counter.size - before).toBeLessThanOrEqual(1 + 2 * LIMITS.forgotPerIp.max);
  });

  it('limits forgot-password per email address from one address, per address, and per email address overall', async () => {
    const user = await createUser(t.database);
    for (const email of [user.email, 'unknown-reader@example.com']) {
      for (let i = 0; i < LIMITS.forgotPerAccountIp.max; i += 1) {
        expect((await forgot(t, '100.64.0.1', email)).statusCode).toBe(200);
      }
      const blocked = await forgot(t, '100.64.0.1', email.toUpperCase());
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many password reset requests\. Please wait \d+ minutes? and try again\.$/);
      // The same email address from elsewhere is still served, up to the higher overall cap.
      for (let i = LIMITS.forgotPerAccountIp.max; i < LIMITS.forgotPerAccount.max; i += 1) {
        expect((await forgot(t, `100.64.2.${i}`, email)).statusCode).toBe(200);
      }
      expect((await forgot(t, '100.64.2.99', email)).statusCode).toBe(429);
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

  it("a stranger's reset requests from one address do not stop the owner's mail", async () => {
    const owner = await createUser(t.database);
    for (let i = 0; i < 12; i += 1) await forgot(t, '100.64.3.1', owner.email);
    await waitForOutbox(t.database.db, owner.email, 'password-reset', LIMITS.forgotPerAccountIp.max);
    const res = await forgot(t, '100.64.3.2', owner.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(FORGOT_PASSWORD_ANSWER);
    await waitForOutbox(t.database.db, owner.email, 'password-reset', LIMITS.forgotPerAccountIp.max + 1);
  });
});


describe.skipIf(!(await redisAvailable()))('abuse limits across instances (Redis)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyPrefix: string;
  let redisA: Redis;
  let redisB: Redis;
  let a: TestApp;
  let b: TestApp;
  const unique = () => `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const randomIp = () => `172.16.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  beforeAll(async () => {
    database = await createTestDatabase();
    // A run-specific key prefix: fresh databases reuse user ids, and old counts must not leak in.
    keyPrefix = `test-${unique()}:`;
    redisA = new Redis(redisUrl, { keyPrefix });
    redisB = new Redis(redisUrl, { keyPrefix });
    a = await createTestApp({ seed: false, database, redis: redisA });
    b = await createTestApp({ seed: false, database, redis: redisB });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await database.drop();
    const keys = await redisA.keys(`${keyPrefix}*`);
    if (keys.length) await redisA.del(...keys.map((k) => k.slice(keyPrefix.length)));
    redisA.disconnect();
    redisB.disconnect();
  });

  it('counts failed sign-ins from both instances against one limit', async () => {
    const user = await createUser(database, { username: `shared_${unique()}` });
    const ip = randomIp();
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i += 1) {
      const instance = i % 2 ? a : b;
      const name = i < LIMITS.loginFailuresPerAccountIp.max - 1 ? user.username : `shared-guess-${i}`;
      expect((await login(instance, ip, name, 'Wrong-Pass-1')).statusCode).toBe(401);
    }
    expect((await login(a, ip, user.username, user.password)).statusCode).toBe(429);
    expect((await login(b, ip, user.username, user.password)).statusCode).toBe(429);
  });

  it('lets parallel correct sign-ins on both instances in, and parallel guesses stop at the limit', async () => {
    const user = await createUser(database, { username: `parallel_${unique()}` });
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => login(i % 2 ? a : b, ip, user.username, user.password)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(i % 2 ? a : b, ip, `parallel-guess-${i % 3}`, 'Wrong-Pass-1')),
    );
    expect(guesses.filter((r) => r.statusCode === 401)).toHaveLength(LIMITS.loginFailuresPerIp.max);
  });

  it('an address over its limit adds no keys to Redis, however many made-up names it tries', async () => {
    const ip = randomIp();
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i += 1) await login(a, ip, `made-up-${i}`, 'Wrong-Pass-1');
    const before = (await redisA.keys(`${keyPrefix}*`)).length;
    for (let i = 0; i < 200; i += 1) {
      expect((await login(i % 2 ? a : b, ip, `made-up-more-${i}`, 'Wrong-Pass-1')).statusCode).toBe(429);
    }
    expect((await redisA.keys(`${keyPrefix}*`)).length).toBe(before);
  });
});
