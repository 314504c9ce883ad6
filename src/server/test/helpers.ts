import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../app';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/client';
import { createTestDatabase } from './database';
import { seed } from '../platform/operations/seed';
import { users } from '../db/schema';
import type { Clock } from '../platform/security/crypto';
import { DiskFileStore } from '../platform/storage/files';
import type { MailTransport } from '../platform/mail/mail';
import { hashPassword } from '../platform/security/passwords';
import { Redis } from 'ioredis';

/** A clock the test moves by hand, for expiry rules. */
export class TestClock implements Clock {
  /** How far the test has moved time forward; monotonic time moves with it, and never back. */
  private moved = 0;
  constructor(private current = new Date('2026-11-21T12:00:00Z')) {}
  now() {
    return new Date(this.current);
  }
  elapsed() {
    return performance.now() + this.moved;
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
    this.moved += Math.max(0, ms);
  }
  set(date: Date) {
    this.moved += Math.max(0, date.getTime() - this.current.getTime());
    this.current = new Date(date);
  }
}

export { createTestDatabase };

export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-'));
  // Tests read what they just wrote; the site cache is exercised by its own tests.
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SITE_CACHE_MS: '0', ...env });
}

export interface TestAppOptions extends Partial<Omit<BuildOptions, 'config' | 'database'>> {
  env?: Record<string, string>;
  /** Seed the product content (books, posts, files). Default true. */
  seed?: boolean;
  /** Reuse a database (several app instances sharing one). */
  database?: Database & { drop(): Promise<void> };
  mailTransport?: MailTransport | null;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database & { drop(): Promise<void> };
  config: Config;
  clock: TestClock;
  close(): Promise<void>;
}

const fixtureClient = path.join(os.tmpdir(), 'site-test-client');
function ensureClientFixture(): string {
  fs.mkdirSync(path.join(fixtureClient, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(fixtureClient, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8" /><title>What We Owe the Dead</title><meta name="description" content="default" /><link rel="modulepreload" crossorigin href="/assets/boot-abc123.js"></head><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>',
  );
  fs.writeFileSync(path.join(fixtureClient, 'assets', 'app-abc123.js'), 'console.log("app")');
  fs.writeFileSync(path.join(fixtureClient, 'assets', 'boot-abc123.js'), 'console.log("boot")');
  fs.writeFileSync(path.join(fixtureClient, 'assets', 'reader.worker-abc123.js'), 'self.onmessage = () => {};');
  return fixtureClient;
}

/**
 * A teardown that hangs fails its file only through the hook's timeout, which says nothing of why: after
 * 15 seconds this reports the step it is in and what the process still holds open.
 */
function teardownWatch() {
  const started = Date.now();
  let current = '';
  const timer = setInterval(() => {
    const open = process.getActiveResourcesInfo().join(', ');
    console.error(`test app teardown: still in ${current} after ${Date.now() - started} ms; open: ${open}`);
  }, 15_000);
  timer.unref();
  return {
    step: (name: string) => {
      current = name;
    },
    done: () => clearInterval(timer),
  };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(options.env);
  const clock = (options.clock as TestClock | undefined) ?? new TestClock();
  const files = options.files ?? new DiskFileStore(path.join(config.dataDir, 'files'));
  if (options.seed !== false) await seed(database.db, files);
  const app = await buildApp({
    config,
    database,
    clock,
    files,
    random: options.random,
    mailTransport: options.mailTransport ?? null,
    redis: options.redis ?? null,
    clientDir: options.clientDir ?? ensureClientFixture(),
    renderApp: options.renderApp,
    logger: options.logger ?? false,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    clock,
    close: async () => {
      const watch = teardownWatch();
      try {
        watch.step('app.close');
        await app.close();
        watch.step('database.drop');
        if (!options.database) await database.drop();
      } finally {
        watch.done();
      }
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser-like client for app.inject: keeps cookies, fetches and sends the CSRF token on unsafe methods,
 * and sends a bearer token when it has one.
 */
export class TestAgent {
  cookies = new Map<string, string>();
  bearer: string | null = null;
  csrfToken: string | null = null;

  constructor(private readonly app: FastifyInstance) {}

  private absorbCookies(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  cookieHeader(): string | undefined {
    if (!this.cookies.size) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async fetchCsrf(): Promise<string> {
    const res = await this.request({ method: 'GET', url: '/api/csrf-token' });
    this.csrfToken = res.json().csrfToken;
    return this.csrfToken!;
  }

  async request(opts: InjectOptions & { csrf?: boolean; auth?: 'both' | 'cookie' | 'bearer' | 'none' }) {
    const method = (opts.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    const auth = opts.auth ?? 'both';
    const cookie = this.cookieHeader();
    if (cookie && auth !== 'bearer' && auth !== 'none') headers.cookie = cookie;
    else if (cookie && auth === 'bearer') {
      // Keep the CSRF visitor cookie but drop the session cookie.
      const rest = [...this.cookies].filter(([k]) => !k.endsWith('sid'));
      if (rest.length) headers.cookie = rest.map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (this.bearer && (auth === 'both' || auth === 'bearer')) headers.authorization = `Bearer ${this.bearer}`;
    if (!['GET', 'HEAD', 'OPTIONS'].includes(method) && opts.csrf !== false) {
      headers['x-csrf-token'] = this.csrfToken ?? (await this.fetchCsrf());
      // fetchCsrf may have set the visitor cookie.
      const refreshed = this.cookieHeader();
      if (refreshed && auth !== 'bearer' && auth !== 'none') headers.cookie = refreshed;
      else if (auth === 'bearer') {
        const rest = [...this.cookies].filter(([k]) => !k.endsWith('sid'));
        if (rest.length) headers.cookie = rest.map(([k, v]) => `${k}=${v}`).join('; ');
      }
    }
    const res = await this.app.inject({ ...opts, method: method as InjectOptions['method'], headers });
    this.absorbCookies(res);
    return res;
  }

  get(url: string, opts: Omit<InjectOptions, 'url' | 'method'> & { auth?: 'both' | 'cookie' | 'bearer' | 'none' } = {}) {
    return this.request({ ...opts, method: 'GET', url });
  }
  post(url: string, payload?: unknown, opts: { auth?: 'both' | 'cookie' | 'bearer' | 'none'; csrf?: boolean; headers?: Record<string, string> } = {}) {
    return this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...opts });
  }
  put(url: string, payload?: unknown, opts: { csrf?: boolean } = {}) {
    return this.request({ method: 'PUT', url, payload: payload as InjectOptions['payload'], ...opts });
  }
  patch(url: string, payload?: unknown, opts: { csrf?: boolean } = {}) {
    return this.request({ method: 'PATCH', url, payload: payload as InjectOptions['payload'], ...opts });
  }
  delete(url: string, opts: { csrf?: boolean } = {}) {
    return this.request({ method: 'DELETE', url, ...opts });
  }
}

let userCounter = 0;
/** Inserts a user directly (no HTTP) and returns it with the plain password. */
export async function createUser(
  database: Database,
  fields: Partial<{ username: string; email: string; password: string; role: 'user' | 'admin'; displayName: string }> = {},
) {
  userCounter += 1;
  const username = fields.username ?? `reader${userCounter}_${Math.random().toString(36).slice(2, 6)}`;
  const password = fields.password ?? 'Correct-Horse-9';
  const [row] = await database.db
    .insert(users)
    .values({
      username,
      email: fields.email ?? `${username}@example.com`,
      displayName: fields.displayName ?? username,
      passwordHash: await hashPassword(password),
      role: fields.role ?? 'user',
    })
    .returning();
  return { ...row, password };
}

/** An agent signed in as the user, holding both the session cookie and the bearer token. */
export async function signedInAgent(app: FastifyInstance, userId: number): Promise<TestAgent> {
  const agent = new TestAgent(app);
  const issued = await app.sessions.create(userId);
  agent.cookies.set(app.sessions.cookieName, issued.cookieToken);
  agent.bearer = issued.bearerToken;
  return agent;
}

/** The Redis the cross-instance tests use: REDIS_URL, else a local one. */
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether that Redis answers; the tests that need it are skipped when it does not. */
export async function redisAvailable(): Promise<boolean> {
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
