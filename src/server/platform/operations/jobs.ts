import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { jobs } from '../../db/schema';
import type { Clock } from '../security/crypto';
import { whileLeaseHeld } from './lease';

export type JobRow = typeof jobs.$inferSelect;

/** What a handler gets: the job's payload and row. What it returns is kept as the job's last result. */
export type JobHandler = (job: JobRow) => Promise<unknown>;

export interface JobDefinition {
  handler: JobHandler;
  /** Recurring: run every this many milliseconds (one row, moved forward after each run). */
  everyMs?: number;
  /**
   * Recurring: the first run waits one period instead of running at the first start. For work measured in
   * days (reminders), where a run at every fresh database would only find nothing to do.
   */
  firstRunAfterPeriod?: boolean;
  /**
   * How long another instance waits before taking over a run whose instance died. A run in progress
   * renews its lease, so this bounds the wait after a crash, not the length of a run.
   */
  leaseMs?: number;
}

/** Retry backoff after the n-th failure in a row: 10 s, 20 s, 40 s ... capped at 30 minutes. */
export const jobRetryDelayMs = (attempts: number) => Math.min(10_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
const DEFAULT_LEASE_MS = 5 * 60_000;

export interface JobRunnerHooks {
  onRun?(name: string, outcome: 'ok' | 'error', seconds: number): void;
}

/**
 * One job runner for the whole site, on the database every instance shares (decision 0040). Due rows are
 * claimed with their kind's lease (SELECT ... FOR UPDATE SKIP LOCKED, then UPDATE in one transaction), so
 * a run happens on exactly one instance; a running job renews its lease; a failure is retried with backoff; everything lives in the table,
 * so a restart loses nothing and the admin can see each job's state.
 */
export class JobRunner {
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly instanceId = randomUUID().slice(0, 8);
  private running: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private kickTimer: NodeJS.Timeout | null = null;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
    private readonly hooks: JobRunnerHooks = {},
  ) {}

  define(name: string, definition: JobDefinition): void {
    this.definitions.set(name, definition);
  }

  /** Creates the rows of recurring jobs (once, whichever instance comes first); `runNow` makes them due. */
  async ensureRecurring(options: { runNow?: string[] } = {}): Promise<void> {
    const now = this.clock.now();
    for (const [name, def] of this.definitions) {
      if (!def.everyMs) continue;
      await this.db
        .insert(jobs)
        .values({
          name,
          key: name,
          everyMs: def.everyMs,
          runAt: def.firstRunAfterPeriod ? new Date(now.getTime() + def.everyMs) : now,
          maxAttempts: 1_000_000,
        })
        .onConflictDoUpdate({ target: jobs.key, set: { everyMs: def.everyMs } });
    }
    if (options.runNow?.length) {
      await this.db
        .update(jobs)
        .set({ runAt: now })
        .where(and(inArray(jobs.key, options.runNow), eq(jobs.status, 'pending')));
    }
  }

  /** Queues a one-off job; a second enqueue with the same key does nothing. Joins the caller's transaction. */
  async enqueue(
    name: string,
    payload: unknown,
    options: { key?: string; runAt?: Date; maxAttempts?: number } = {},
    tx: DbOrTx = this.db,
  ): Promise<void> {
    await tx
      .insert(jobs)
      .values({
        name,
        key: options.key ?? `${name}:${randomUUID()}`,
        payload: payload as object,
        runAt: options.runAt ?? this.clock.now(),
        maxAttempts: options.maxAttempts ?? 10,
      })
      .onConflictDoNothing({ target: jobs.key });
  }

  /** Makes a recurring job due now (for instance mail dispatch right after an enqueue). */
  async trigger(name: string): Promise<void> {
    await this.db
      .update(jobs)
      .set({ runAt: this.clock.now() })
      .where(and(eq(jobs.key, name), eq(jobs.status, 'pending'), gt(jobs.runAt, this.clock.now())));
  }

  /** Claims and runs the due jobs, one at a time, up to `limit` runs. Returns how many runs happened. */
  async runDue(limit = 10): Promise<number> {
    const names = [...this.definitions.keys()];
    if (names.length === 0) return 0;
    let runs = 0;
    while (runs < limit) {
      const job = await this.claimNext(names);
      if (!job) break;
      await this.runOne(job);
      runs += 1;
    }
    return runs;
  }

  private leaseOf(name: string): number {
    return this.definitions.get(name)?.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /**
   * Claims the most overdue job with its own kind's lease: a mail run's short lease must not stretch to
   * the longest lease of any job, or a crash would stop mail for that long. One job is held at a time, so
   * a job waiting behind a long run is not held by this instance meanwhile.
   */
  private claimNext(names: string[]): Promise<JobRow | null> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: jobs.id, name: jobs.name })
        .from(jobs)
        .where(
          and(
            eq(jobs.status, 'pending'),
            inArray(jobs.name, names),
            lte(jobs.runAt, now),
            or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now)),
          ),
        )
        .orderBy(asc(jobs.runAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const [job] = await tx
        .update(jobs)
        .set({ lockedUntil: new Date(now.getTime() + this.leaseOf(due.name)), lockedBy: this.instanceId, lastStartedAt: now })
        .where(eq(jobs.id, due.id))
        .returning();
      return job ?? null;
    });
  }

  /** A run that outlived its lease and was taken over leaves the row to the instance that took it. */
  private stillHeld(job: JobRow) {
    return and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.instanceId));
  }

  /** Moves a running job's lease forward (only while this instance still holds it). */
  private async renewLease(job: JobRow): Promise<void> {
    await this.db
      .update(jobs)
      .set({ lockedUntil: new Date(this.clock.now().getTime() + this.leaseOf(job.name)) })
      .where(this.stillHeld(job));
  }

  private async runOne(job: JobRow): Promise<void> {
    const def = this.definitions.get(job.name)!;
    const started = Date.now();
    try {
      const result = await whileLeaseHeld(this.leaseOf(job.name), () => this.renewLease(job), () => def.handler(job), this.log);
      const finished = this.clock.now();
      await this.db
        .update(jobs)
        .set(
          job.everyMs
            ? {
                runAt: new Date(finished.getTime() + job.everyMs),
                attempts: 0,
                lockedUntil: null,
                lockedBy: null,
                lastError: null,
                lastFinishedAt: finished,
                lastResult: (result ?? null) as object,
              }
            : { status: 'done', lockedUntil: null, lockedBy: null, lastFinishedAt: finished, lastResult: (result ?? null) as object },
        )
        .where(this.stillHeld(job));
      this.hooks.onRun?.(job.name, 'ok', (Date.now() - started) / 1000);
    } catch (error) {
      const attempts = job.attempts + 1;
      const failed = !job.everyMs && attempts >= job.maxAttempts;
      this.log.warn({ job: job.name, jobId: job.id, attempts, err: error }, 'job failed');
      const finished = this.clock.now();
      // A recurring job retries on backoff but never waits longer than its own period.
      const delay = job.everyMs ? Math.min(jobRetryDelayMs(attempts), job.everyMs) : jobRetryDelayMs(attempts);
      await this.db
        .update(jobs)
        .set({
          attempts,
          status: failed ? 'failed' : 'pending',
          lastError: String((error as Error)?.message ?? error).slice(0, 500),
          lastFinishedAt: finished,
          lockedUntil: null,
          lockedBy: null,
          runAt: new Date(finished.getTime() + delay),
        })
        .where(this.stillHeld(job));
      this.hooks.onRun?.(job.name, 'error', (Date.now() - started) / 1000);
    }
  }

  private runOnce() {
    this.running = this.running
      .then(() => this.runDue())
      .catch((error) => this.log.error({ err: error }, 'job runner poll failed'));
  }

  /**
   * Runs due jobs soon instead of at the next poll, first making the named recurring job due (used after
   * an enqueue: the short delay lets the caller's transaction commit first).
   */
  kick(recurring?: string): void {
    if (recurring) this.kicked.add(recurring);
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = null;
      const names = [...this.kicked];
      this.kicked.clear();
      this.running = this.running
        .then(async () => {
          for (const name of names) await this.trigger(name);
        })
        .catch((error) => this.log.error({ err: error }, 'job trigger failed'));
      this.runOnce();
    }, 300);
    this.kickTimer.unref();
  }
  private readonly kicked = new Set<string>();

  /** Polls for due jobs until stopped. */
  start(pollMs: number): () => Promise<void> {
    this.stopped = false;
    this.runOnce();
    this.timer = setInterval(() => this.runOnce(), pollMs);
    this.timer.unref();
    return async () => {
      this.stopped = true;
      if (this.timer) clearInterval(this.timer);
      if (this.kickTimer) clearTimeout(this.kickTimer);
      await this.running;
    };
  }
}

/** Rows for the admin and the metrics. */
export async function listJobs(db: Db): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(or(sql`${jobs.everyMs} is not null`, sql`${jobs.status} <> 'done'`))
    .orderBy(asc(jobs.name), asc(jobs.id))
    .limit(100);
}

/** Seconds the oldest due job has been waiting past its time (0 when nothing is late). */
export async function jobLagSeconds(db: Db, now: Date): Promise<number> {
  const [row] = await db
    .select({ oldest: sql<string | null>`min(${jobs.runAt})` })
    .from(jobs)
    .where(and(eq(jobs.status, 'pending'), lte(jobs.runAt, now)));
  if (!row?.oldest) return 0;
  return Math.max(0, (now.getTime() - new Date(row.oldest).getTime()) / 1000);
}
