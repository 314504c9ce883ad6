import net from 'node:net';
import { Redis } from 'ioredis';
import { openDatabase } from './db/client';
import { type TestApp, createTestApp, createTestDatabase, createUser, signedInAgent } from './test/helpers';
import { startTcpProxy } from './test/tcp-proxy';

const adminUrl = process.env.TEST_DATABASE_URL;

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/**
 * PostgreSQL goes away and comes back: the instance reaches it through a proxy the test cuts, so the
 * shared server keeps running for everyone else.
 */
describe.skipIf(!adminUrl)('PostgreSQL unreachable', () => {
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let t: TestApp;
  let owned: Awaited<ReturnType<typeof createTestDatabase>>;
  let viaProxy: Awaited<ReturnType<typeof openDatabase>>;

  beforeAll(async () => {
    owned = await createTestDatabase();
    const direct = new URL(owned.url!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(owned.url!);
    proxied.port = String(proxy.port);
    viaProxy = await openDatabase({ databaseUrl: proxied.toString(), poolSize: 4 });
    t = await createTestApp({ database: { ...viaProxy, drop: async () => undefined } });
  });
  afterAll(async () => {
    await t?.close();
    await viaProxy?.close().catch(() => undefined);
    await proxy?.close();
    await owned?.drop();
  });

  it('answers 503 JSON and /readyz 503 while it is down, and recovers by itself', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    expect((await agent.get('/api/library/books')).statusCode).toBe(200);

    await proxy.cut();
    const down = await agent.get('/api/library/books');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      message: 'The site is briefly unavailable. Please try again in a moment.',
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(down.headers['retry-after']).toBe('5');
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', message: 'database unavailable' });

    await proxy.restore();
    expect(await eventually(async () => (await t.app.inject({ url: '/readyz' })).statusCode === 200)).toBe(true);
    expect((await agent.get('/api/library/books')).statusCode).toBe(200);
  });
});

/** Redis set but unreachable: decision 0043, the instance serves and counts limits on its own. */
describe('Redis unreachable with REDIS_URL set', () => {
  let t: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    // Nothing listens on this port: a Redis that is down.
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    redis = new Redis({ port: closed, host: '127.0.0.1', maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    redis.on('error', () => undefined);
    redis.connect().catch(() => undefined);
    t = await createTestApp({ redis, seed: false });
  });
  afterAll(async () => {
    await t.close();
    redis.disconnect();
  });

  it('stays ready, reports Redis as unavailable, and still limits sign-in attempts on this instance', async () => {
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', redis: 'unavailable' });
    const user = await createUser(t.database, { username: 'redis_down_reader' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { username: user.username, password: 'Wrong-Password-1' },
        headers: { 'x-csrf-token': (await csrf()).token, cookie: (await csrf()).cookie },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses).toContain(429);
  });

  let csrfCache: { token: string; cookie: string } | null = null;
  async function csrf() {
    if (csrfCache) return csrfCache;
    const res = await t.app.inject({ url: '/api/csrf-token' });
    const cookie = (res.cookies as Array<{ name: string; value: string }>).map((c) => `${c.name}=${c.value}`).join('; ');
    csrfCache = { token: res.json().csrfToken, cookie };
    return csrfCache;
  }
});
