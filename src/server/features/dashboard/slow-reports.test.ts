/**
 * Slow admin reports cannot take the site down (issue 33 point 2, decision 0070): ten dashboards stuck on a
 * table the reports read (the daily sales roll-up) hold only the reports' own connections; sign-in and the library answer as usual
 * meanwhile, and each stuck report ends with "This report is taking too long". A report whose client hangs
 * up has its statement cancelled at once instead of holding its connection until the timeout.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORT_TOO_LONG } from '@shared/schemas/common';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';

const TIMEOUT_MS = 1_500;

describe.skipIf(!process.env.TEST_DATABASE_URL)('slow reports on PostgreSQL', () => {
  let t: TestApp;
  let locker: pg.Client;

  beforeAll(async () => {
    t = await createTestApp({ env: { REPORT_TIMEOUT_MS: String(TIMEOUT_MS), REPORT_POOL_SIZE: '2' } });
    locker = new pg.Client({ connectionString: t.database.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await t.close();
  });

  it('ten stuck dashboards end with the clear message while sign-in and the library keep answering', async () => {
    const admin = await signedInAgent(t.app, (await createUser(t.database, { role: 'admin' })).id);
    const reader = await createUser(t.database);
    expect((await admin.get('/api/dashboard/stats')).statusCode).toBe(200);

    // Another session holds the daily sales roll-up (a long migration, a vacuum full): the dashboard reads
    // it (decision 0104), and neither a sign-in nor the library writes or reads it.
    await locker.query('begin');
    await locker.query('lock table sales_daily in access exclusive mode');
    try {
      const started = Date.now();
      const dashboards = Promise.all(Array.from({ length: 10 }, () => admin.get('/api/dashboard/stats')));
      // All ten are stuck: two on the locked table with the reports' two connections, eight waiting a turn.
      await vi.waitFor(() => expect(t.app.deps.reports.load).toEqual({ running: 2, waiting: 8 }), { timeout: TIMEOUT_MS / 2, interval: 10 });
      // Readers meanwhile: a sign-in and a library read, each well within a second.
      for (let i = 0; i < 3; i += 1) {
        const before = Date.now();
        const signIn = await new TestAgent(t.app).post('/api/users/login', { username: reader.username, password: reader.password });
        expect(signIn.statusCode, signIn.body).toBe(200);
        const library = await (await signedInAgent(t.app, reader.id)).get('/api/library/books');
        expect(library.statusCode).toBe(200);
        expect(Date.now() - before).toBeLessThan(1_000);
      }
      const answers = await dashboards;
      expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(503));
      expect(answers.every((a) => a.json().message === REPORT_TOO_LONG && a.json().code === 'REPORT_TIMEOUT')).toBe(true);
      // Two ran into the statement timeout, the rest gave up waiting for a turn: none held on for long.
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
      expect(t.app.deps.reports.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      await locker.query('rollback');
    }
    expect((await admin.get('/api/dashboard/stats')).statusCode).toBe(200);
  });

  it('a dashboard whose client hangs up stops its statement at once, long before the timeout', async () => {
    const patient = await createTestApp({ env: { REPORT_TIMEOUT_MS: '60000', REPORT_POOL_SIZE: '2' } });
    const holder = new pg.Client({ connectionString: patient.database.url });
    // Activity is read outside the holder's transaction, which would keep seeing one snapshot of it.
    const observer = new pg.Client({ connectionString: patient.database.url });
    await holder.connect();
    await observer.connect();
    const runningReports = async () =>
      (
        await observer.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'site-reports' and state = 'active'",
        )
      ).rows[0].n;
    const within = async (ms: number, done: () => Promise<boolean> | boolean) => {
      const until = Date.now() + ms;
      while (!(await done())) {
        if (Date.now() > until) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return true;
    };
    try {
      const admin = await signedInAgent(patient.app, (await createUser(patient.database, { role: 'admin' })).id);
      const address = await patient.app.listen({ port: 0, host: '127.0.0.1' });
      await holder.query('begin');
      await holder.query('lock table sales_daily in access exclusive mode');
      try {
        const hangUp = new AbortController();
        const request = fetch(`${address}/api/dashboard/stats`, { headers: { cookie: admin.cookieHeader()! }, signal: hangUp.signal }).catch(
          (e: unknown) => e,
        );
        expect(await within(10_000, async () => (await runningReports()) === 1)).toBe(true);
        const hungUpAt = Date.now();
        hangUp.abort();
        expect(await request).toBeInstanceOf(Error);
        expect(await within(2_000, async () => (await runningReports()) === 0)).toBe(true);
        expect(Date.now() - hungUpAt).toBeLessThan(2_000);
        expect(await within(2_000, () => patient.app.deps.reports.load.running === 0)).toBe(true);
      } finally {
        await holder.query('rollback');
      }
      expect((await admin.get('/api/dashboard/stats')).statusCode).toBe(200);
    } finally {
      await holder.end();
      await observer.end();
      await patient.close();
    }
  });
});
