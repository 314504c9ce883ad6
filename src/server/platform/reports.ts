/**
 * The author's reports (dashboard, order search, reader and subscriber lists, exports) run apart from
 * readers' and checkout queries (issue 33 point 2, decision 0070): on PostgreSQL on a small pool of their
 * own whose statements the server stops after REPORT_TIMEOUT_MS, and never more at once than that pool
 * holds. A report that cannot start or finish in time answers "This report is taking too long" (503) and
 * holds nothing; a request whose client has gone stops waiting for a turn.
 */
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { REPORT_TOO_LONG } from '@shared/schemas/common';
import { type Database, type Db, withDefaultUser } from '../db/client';
import * as schema from '../db/schema';
import { AppError } from './errors';
import { queryCancelled } from './db-errors';

export const reportTooLong = () => new AppError('REPORT_TIMEOUT', 503, REPORT_TOO_LONG);

/** Aborts when the client hangs up before its answer was sent: a report no one will read gives up its turn. */
export function untilClientGone(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

export interface ReportSettings {
  /** How many reports may run at once (the size of their pool on PostgreSQL). */
  slots: number;
  /** How long a report may wait for its turn, and how long its statements may run. */
  timeoutMs: number;
}

export class Reports {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly db: Db,
    private readonly settings: ReportSettings,
    private readonly closePool: () => Promise<void> = async () => {},
  ) {}

  /** Runs one report on the reports' connections; `signal` (the client going away) gives up its turn. */
  async run<T>(report: (db: Db) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.turn(signal);
    try {
      return await report(this.db);
    } catch (error) {
      if (queryCancelled(error)) throw reportTooLong();
      throw error;
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Reports running and waiting now (the System page and tests read them). */
  get load() {
    return { running: this.running, waiting: this.waiting.length };
  }

  close(): Promise<void> {
    return this.closePool();
  }

  private turn(signal?: AbortSignal): Promise<void> {
    if (this.running < this.settings.slots) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const leave = (error: Error) => {
        const at = this.waiting.indexOf(start);
        if (at >= 0) this.waiting.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const start = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.running += 1;
        resolve();
      };
      const onAbort = () => leave(new AppError('CLIENT_GONE', 499, 'The request was cancelled'));
      const timer = setTimeout(() => leave(reportTooLong()), this.settings.timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }
}

/**
 * On PostgreSQL, a pool of `slots` connections whose statements stop after `timeoutMs`; on PGlite (one
 * process, one connection) the same database, with the turn-taking alone.
 */
export function openReports(database: Database, settings: ReportSettings): Reports {
  if (database.kind !== 'postgres' || !database.url) return new Reports(database.db, settings);
  const pool = new pg.Pool({
    connectionString: withDefaultUser(database.url),
    max: settings.slots,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    statement_timeout: settings.timeoutMs,
    application_name: 'site-reports',
  });
  // A dropped idle connection is replaced by the pool; the next report sees any real outage.
  pool.on('error', () => {});
  return new Reports(drizzle(pool, { schema }) as unknown as Db, settings, () => pool.end());
}
