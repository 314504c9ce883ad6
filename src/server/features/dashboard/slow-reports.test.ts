/**
 * Slow admin reports cannot take the site down (issue 33 point 2, decision 0070): ten dashboards stuck on a
 * table the reports read hold only the reports' own connections; sign-in and the library answer as usual
 * meanwhile, and each stuck report ends with "This report is taking too long".
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

    // Another session holds the subscribers table (a long migration, a vacuum full): the dashboard reads it.
    await locker.query('begin');
    await locker.query('lock table newsletter_subscribers in access exclusive mode');
    try {
      const started = Date.now();
      const dashboards = Promise.all(Array.from({ length: 10 }, () => admin.get('/api/dashboard/stats')));
      // Readers meanwhile: a sign-in and a library read, each well within a second.
      await new Promise((resolve) => setTimeout(resolve, 200));
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
});
