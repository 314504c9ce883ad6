import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { askRunningServer } from './platform/operations/control-socket';
import { fillOutbox } from './test/large-outbox';
import { freePort } from './test/ports';
import { startLocalS3 } from './test/s3-server';
import { createTestDatabase } from './test/helpers';

/**
 * The real entry point (src/server/main.ts, what `node dist/server/main.js` runs) started with services
 * configured that answer, that do not, and that go away and come back (decision 0063).
 */

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  // Every cleanup runs even when one fails (a redis-server left running outlives the test run).
  const failures: unknown[] = [];
  for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch((error) => failures.push(error));
  if (failures.length) throw failures[0];
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` is truthy, for at most `ms`. */
async function waitFor<T>(what: string, ms: number, probe: () => Promise<T> | T): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await Promise.resolve(probe()).catch(() => null);
    if (value) return value as NonNullable<T>;
    await pause(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Variables of the test's own environment that would configure a service the test did not choose. */
const SERVICE_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];

interface Started {
  child: ChildProcess;
  base: string;
  exit: Promise<number | null>;
  /** Lines the process wrote to stderr so far. */
  errorLines(): string[];
  output(): string;
  readyz(): Promise<{ status: number; body: { redis?: string; status: string } }>;
}

async function startMain(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-start-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const baseEnv: Record<string, string | undefined> = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete baseEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...baseEnv,
      NODE_OPTIONS: '',
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    base,
    exit,
    errorLines: () => stderr.split('\n').filter((line) => line.trim() !== ''),
    output: () => stdout + stderr,
    readyz: async () => {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) });
      return { status: res.status, body: await res.json() };
    },
  };
}

/** A database the started process can reach: a fresh PostgreSQL one when the suite runs on it, else PGlite. */
async function databaseEnv(): Promise<Record<string, string>> {
  if (!process.env.TEST_DATABASE_URL) return {};
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return { DATABASE_URL: database.url! };
}

/** Stack frames or Node's crash report: what an unhandled error prints. */
const CRASH = /^\s+at |Unhandled|uncaughtException|^Node\.js v/m;

const redisServer = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();

/** A redis-server of the test's own on `port`, so the test can stop it and start it again. */
function ownRedis(port: number) {
  let child: ChildProcess | null = null;
  const ping = async () => {
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } finally {
      probe.disconnect();
    }
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  cleanups.push(stop);
  return {
    start: async () => {
      child = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      await waitFor('redis-server', 10_000, ping);
    },
    stop,
    /** The Redis clients of one process, by the names it gives them. */
    clients: async (pid: number) => {
      const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
      try {
        const list = (await client.client('LIST')) as string;
        return list.split('\n').filter((line) => line.includes(`:${os.hostname()}:${pid} `));
      } finally {
        client.disconnect();
      }
    },
  };
}

describe('start with a service that does not answer', () => {
  it('PostgreSQL unreachable: retries for STARTUP_WAIT_MS, then exits with one line naming it', async () => {
    const dead = await freePort();
    const main = await startMain({ DATABASE_URL: `postgres://site:secret-pass@127.0.0.1:${dead}/site`, STARTUP_WAIT_MS: '2000' });
    expect(await main.exit).toBe(1);
    const lines = main.errorLines();
    expect(lines).toEqual([
      `PostgreSQL at 127.0.0.1:${dead} unavailable (ECONNREFUSED): retrying for up to 2 s`,
      `PostgreSQL at 127.0.0.1:${dead} unavailable for 2 s (ECONNREFUSED): exiting`,
    ]);
    expect(main.output()).not.toContain('secret-pass');
  }, 60_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL database that does not exist stops the start at once', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = '/no_such_database_here';
    const started = Date.now();
    const main = await startMain({ DATABASE_URL: url.toString(), STARTUP_WAIT_MS: '60000' });
    expect(await main.exit).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(main.errorLines()).toEqual([
      `PostgreSQL at ${url.hostname}:${url.port} refused the start (3D000 database "no_such_database_here" does not exist): exiting`,
    ]);
  }, 60_000);

  it('S3 server unreachable: retries, then exits with one line naming the bucket', async () => {
    const dead = await freePort();
    const main = await startMain({
      S3_BUCKET: 'site-files',
      S3_ENDPOINT: `http://127.0.0.1:${dead}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      STARTUP_WAIT_MS: '2000',
    });
    expect(await main.exit).toBe(1);
    const lines = main.errorLines().filter((line) => line.startsWith('S3 '));
    expect(lines).toEqual([
      `S3 bucket site-files at 127.0.0.1:${dead} unavailable (ECONNREFUSED): retrying for up to 2 s`,
      `S3 bucket site-files at 127.0.0.1:${dead} unavailable for 2 s (ECONNREFUSED): exiting`,
    ]);
    expect(main.output()).not.toMatch(CRASH);
  }, 60_000);

  it('an S3 server without the bucket: exits with one line naming the bucket', async () => {
    const s3 = await startLocalS3('another-bucket');
    cleanups.push(() => s3.close());
    const main = await startMain({
      S3_BUCKET: 'site-files',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      STARTUP_WAIT_MS: '2000',
    });
    expect(await main.exit).toBe(1);
    const where = s3.endpoint.replace('http://', '');
    expect(main.errorLines().filter((line) => line.startsWith('S3 '))).toEqual([
      `S3 bucket site-files at ${where} unavailable (HTTP 404 NotFound): retrying for up to 2 s`,
      `S3 bucket site-files at ${where} unavailable for 2 s (HTTP 404 NotFound): exiting`,
    ]);
    expect(main.output()).not.toMatch(CRASH);
  }, 60_000);

  it('Redis and SMTP unreachable: the site serves, says so in one line each, and stops cleanly', async () => {
    const [redisPort, smtpPort] = [await freePort(), await freePort()];
    const main = await startMain({
      ...(await databaseEnv()),
      REDIS_URL: `redis://:secret-pass@127.0.0.1:${redisPort}`,
      SMTP_URL: `smtp://user:secret-pass@127.0.0.1:${smtpPort}`,
    });
    const ready = await waitFor('/readyz', 90_000, async () => {
      const r = await main.readyz();
      return r.status === 200 ? r : null;
    });
    expect(ready.body).toMatchObject({ status: 'ready', redis: 'unavailable' });
    expect((await fetch(`${main.base}/api/books`)).status).toBe(200);
    await waitFor('the SMTP line', 20_000, () => main.errorLines().some((line) => line.startsWith('SMTP ')));
    expect(main.errorLines()).toEqual([
      `Redis at 127.0.0.1:${redisPort} unreachable (ECONNREFUSED): serving without it, retrying in the background; ` +
        'rate limits count per instance and other instances see admin changes within SITE_CACHE_MS until it answers',
      `SMTP at 127.0.0.1:${smtpPort} unavailable (ECONNREFUSED): mail waits in the outbox and is sent once it answers`,
    ]);
    main.child.kill('SIGTERM');
    expect(await main.exit).toBe(0);
    expect(main.output()).not.toMatch(CRASH);
    expect(main.output()).not.toContain('secret-pass');
  }, 200_000);

  it.skipIf(!redisServer)(
    'Redis at start: the cache bus subscribes; Redis stopped: the site serves; Redis back: both connections return',
    async () => {
      const redisPort = await freePort();
      const redis = ownRedis(redisPort);
      await redis.start();
      const main = await startMain({ ...(await databaseEnv()), REDIS_URL: `redis://127.0.0.1:${redisPort}` });
      const pid = main.child.pid!;
      const ready = await waitFor('/readyz', 90_000, async () => {
        const r = await main.readyz();
        return r.status === 200 ? r : null;
      });
      expect(ready.body.redis).toBe('ok');
      // The main connection and the cache bus' own, subscribed to one channel.
      const connected = await redis.clients(pid);
      expect(connected.find((line) => line.includes(` name=site-cache-bus:`))).toMatch(/ sub=1 /);
      expect(connected.find((line) => line.includes(` name=site:`))).toMatch(/ sub=0 /);

      await redis.stop();
      await waitFor('redis unavailable in /readyz', 15_000, async () => (await main.readyz()).body.redis === 'unavailable');
      // An outage is reported once a reconnection has failed; a restart quicker than the client's first retry
      // would be a blip nobody needs to hear about, so wait for the report before bringing Redis back.
      await waitFor('the outage reported', 15_000, async () => main.errorLines().some((line) => line.startsWith('Redis ') && line.includes(' unreachable ')));
      expect((await main.readyz()).status).toBe(200);
      expect((await fetch(`${main.base}/api/books`)).status).toBe(200);

      await redis.start();
      await waitFor('redis ok in /readyz', 15_000, async () => (await main.readyz()).body.redis === 'ok');
      const again = await waitFor('the cache bus subscribed again', 15_000, async () =>
        (await redis.clients(pid)).find((line) => line.includes(' name=site-cache-bus:') && line.includes(' sub=1 ')),
      );
      expect(again).toBeTruthy();
      const lines = main.errorLines().filter((line) => line.startsWith('Redis '));
      expect(lines).toEqual([
        `Redis at 127.0.0.1:${redisPort} unreachable (ECONNREFUSED): serving without it, retrying in the background; ` +
          'rate limits count per instance and other instances see admin changes within SITE_CACHE_MS until it answers',
        `Redis at 127.0.0.1:${redisPort} answers again: rate limits and cache clears are shared again`,
      ]);
      main.child.kill('SIGTERM');
      expect(await main.exit).toBe(0);
      expect(main.output()).not.toMatch(CRASH);
    },
    200_000,
  );
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('stopping the embedded-database site while it writes a backup', () => {
  it('SIGTERM is answered within a second: /readyz turns 503 while the backup is still running, then the process ends', async () => {
    // The site's own data directory, with an outbox big enough that the backup takes seconds.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-stop-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const database = await openDatabase({ dataDir });
    await runMigrations(database);
    await fillOutbox(database, 6_000);
    await database.close();

    const main = await startMain({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '3000' });
    await waitFor('/readyz', 90_000, async () => (await main.readyz()).status === 200);
    const archive = path.join(dataDir, 'during-stop.tar.gz');
    let backupEnded = false;
    const backup = askRunningServer(dataDir, { command: 'backup', out: archive })
      .catch((error: unknown) => error)
      .finally(() => (backupEnded = true));
    // The archive is written under a temporary name and renamed when complete.
    const partial = `${archive}.partial`;
    await waitFor('the archive being written', 30_000, () => fs.existsSync(partial) && fs.statSync(partial).size > 0);

    const signalled = performance.now();
    main.child.kill('SIGTERM');
    // Asked afresh every 100 ms: /readyz reads the database, which waits for the backup's transaction on the
    // embedded database's one connection, until the shutdown starts and it answers 503 without asking it.
    await waitFor('/readyz 503', 5_000, async () => {
      const res = await fetch(`${main.base}/readyz`, { signal: AbortSignal.timeout(300) });
      return res.status === 503;
    });
    expect(performance.now() - signalled).toBeLessThan(1_000);
    expect(backupEnded).toBe(false);

    expect(await main.exit).not.toBeNull();
    await backup;
    expect(main.output()).not.toMatch(CRASH);
  }, 200_000);
});
