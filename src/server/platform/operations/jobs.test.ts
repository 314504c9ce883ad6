import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema';
import { TestClock, createTestDatabase } from '../../test/helpers';
import { JobRunner, jobLagSeconds, jobRetryDelayMs, listJobs } from './jobs';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('job runner', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clock = new TestClock();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const row = async (key: string) => (await database.db.select().from(jobs).where(eq(jobs.key, key)))[0];

  it('runs a one-off job once, retries a failure with backoff, and gives up after its attempts', async () => {
    const runner = new JobRunner(database.db, clock, quiet);
    const seen: unknown[] = [];
    let failuresLeft = 2;
    runner.define('flaky', {
      handler: async (job) => {
        seen.push(job.payload);
        if (failuresLeft-- > 0) throw new Error('provider down');
        return { ok: true };
      },
    });
    await runner.enqueue('flaky', { gift: 7 }, { key: 'flaky:7', maxAttempts: 5 });
    // The same key again is the same job.
    await runner.enqueue('flaky', { gift: 7 }, { key: 'flaky:7', maxAttempts: 5 });

    expect(await runner.runDue()).toBe(1);
    let job = await row('flaky:7');
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'provider down', lockedUntil: null });
    expect(job.runAt.getTime()).toBe(clock.now().getTime() + jobRetryDelayMs(1));
    // Not due before its backoff has passed.
    expect(await runner.runDue()).toBe(0);
    clock.advance(jobRetryDelayMs(1));
    expect(await runner.runDue()).toBe(1);
    expect((await row('flaky:7')).attempts).toBe(2);
    clock.advance(jobRetryDelayMs(2));
    expect(await runner.runDue()).toBe(1);
    job = await row('flaky:7');
    expect(job).toMatchObject({ status: 'done', lastResult: { ok: true } });
    expect(seen).toEqual([{ gift: 7 }, { gift: 7 }, { gift: 7 }]);

    runner.define('hopeless', {
      handler: async () => {
        throw new Error('never works');
      },
    });
    await runner.enqueue('hopeless', null, { key: 'hopeless:1', maxAttempts: 2 });
    await runner.runDue();
    clock.advance(jobRetryDelayMs(1));
    await runner.runDue();
    expect(await row('hopeless:1')).toMatchObject({ status: 'failed', attempts: 2, lastError: 'never works' });
    expect((await listJobs(database.db)).map((j) => j.key)).toContain('hopeless:1');
  });

  it('survives a restart: a run cut short is taken over by another runner when its lease ends', async () => {
    const crashed = new JobRunner(database.db, clock, quiet);
    crashed.define('report', { handler: () => new Promise(() => undefined), leaseMs: 60_000 });
    await crashed.enqueue('report', { n: 1 }, { key: 'report:1' });
    // The first instance claims the job and dies mid-run (its handler never returns).
    void crashed.runDue();
    await vi.waitFor(async () => expect((await row('report:1')).lockedUntil).not.toBeNull());

    const fresh = new JobRunner(database.db, clock, quiet);
    let ran = 0;
    fresh.define('report', {
      handler: async () => {
        ran += 1;
      },
    });
    expect(await fresh.runDue()).toBe(0);
    expect(await jobLagSeconds(database.db, clock.now())).toBeGreaterThanOrEqual(0);
    clock.advance(60_001);
    expect(await fresh.runDue()).toBe(1);
    expect(ran).toBe(1);
    expect((await row('report:1')).status).toBe('done');
  });

  it('a recurring job has one row, runs once per period, and reports its lag', async () => {
    const a = new JobRunner(database.db, clock, quiet);
    const b = new JobRunner(database.db, clock, quiet);
    let runs = 0;
    for (const r of [a, b]) {
      r.define('tick', {
        everyMs: 60_000,
        handler: async () => {
          runs += 1;
          return { runs };
        },
      });
      await r.ensureRecurring();
    }
    expect(await database.db.select().from(jobs).where(eq(jobs.name, 'tick'))).toHaveLength(1);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
    expect(await a.runDue()).toBe(0);
    clock.advance(90_000);
    expect(await jobLagSeconds(database.db, clock.now())).toBeGreaterThanOrEqual(30);
    await b.runDue();
    expect(runs).toBe(2);
    expect((await row('tick')).lastResult).toEqual({ runs: 2 });
  });
  it('a recurring job that waits a period first is not due at the first start, then runs each period', async () => {
    const runner = new JobRunner(database.db, clock, quiet);
    let runs = 0;
    runner.define('daily-nudge', {
      everyMs: 3_600_000,
      firstRunAfterPeriod: true,
      handler: async () => {
        runs += 1;
      },
    });
    await runner.ensureRecurring();
    expect((await row('daily-nudge')).runAt.getTime()).toBe(clock.now().getTime() + 3_600_000);
    await runner.runDue();
    expect(runs).toBe(0);
    clock.advance(3_600_000);
    await runner.runDue();
    expect(runs).toBe(1);
  });
  it('claims each kind with its own lease, and a long run keeps its lease by renewing it', async () => {
    const runner = new JobRunner(database.db, clock, quiet);
    let finish!: () => void;
    runner.define('long-report', { leaseMs: 5 * 60_000, handler: async () => undefined });
    runner.define('quick-send', {
      leaseMs: 3_000,
      handler: () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    });
    await runner.enqueue('quick-send', null, { key: 'quick-send:1' });
    const claimedAt = clock.now().getTime();
    const run = runner.runDue(1);
    await vi.waitFor(async () => expect((await row('quick-send:1')).lockedUntil).not.toBeNull(), { timeout: 10_000 });
    // Its own 3 s lease, not the 5 minutes of the longest job this runner knows.
    expect((await row('quick-send:1')).lockedUntil!.getTime()).toBe(claimedAt + 3_000);

    // The run outlasts its first lease, and renews it (every third of the lease) while it lasts.
    clock.advance(2_500);
    await vi.waitFor(async () => expect((await row('quick-send:1')).lockedUntil!.getTime()).toBe(clock.now().getTime() + 3_000), { timeout: 10_000 });
    clock.advance(1_000);
    const other = new JobRunner(database.db, clock, quiet);
    other.define('quick-send', { handler: async () => undefined });
    expect(await other.runDue()).toBe(0);

    finish();
    expect(await run).toBe(1);
    expect(await row('quick-send:1')).toMatchObject({ status: 'done', lockedUntil: null, lockedBy: null });
  });
});
