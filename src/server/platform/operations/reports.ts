/**
 * The author's reports (dashboard, order search, reader and subscriber lists, exports) run apart from
 * readers' and checkout queries (issue 33 point 2, decision 0070): on PostgreSQL on a small pool of their
 * own whose statements the server stops after REPORT_TIMEOUT_MS, and never more at once than that pool
 * holds. A report that cannot start or finish in time answers "This report is taking too long" (503) and
 * holds nothing; a request whose client has gone stops waiting for a turn, and on PostgreSQL the statement
 * it is running is cancelled, so no one's abandoned report keeps a connection busy until its timeout.
 */
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { drizzle } from 'drizzle-orm/node-postgres';
import { REPORT_TOO_LONG } from '@shared/schemas/common';
import { type Database, type Db, withDefaultUser } from '../../db/client';
import * as schema from '../../db/schema';
import { AppError } from '../http/errors';
import { queryCancelled } from '../storage/db-errors';

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

/** The connection one report runs on, and how to stop the statement it is running. */
export interface ReportConnection {
  db: Db;
  /**
   * PostgreSQL only: the bytes of `COPY (...) TO STDOUT` as the server writes them, never made into rows
   * (the exports, decision 0111).
   */
  copyOut?: (statement: string) => Readable & { rowCount: number };
  /** Asks the server to stop the statement running on this connection now. */
  cancel(): Promise<void>;
  /** Gives the connection back; one whose statement was cancelled is closed instead of reused. */
  release(cancelled: boolean): void;
}

const clientGone = () => new AppError('CLIENT_GONE', 499, 'The request was cancelled');

export class Reports {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    db: Db,
    private readonly settings: ReportSettings,
    private readonly connect: () => Promise<ReportConnection> = async () => ({ db, cancel: async () => {}, release: () => {} }),
    private readonly closePool: () => Promise<void> = async () => {},
  ) {}

  /**
   * Runs one report on the reports' connections. `signal` (the client going away) gives up its turn, or
   * cancels its statement once it runs.
   */
  async run<T>(report: (db: Db, copyOut?: ReportConnection['copyOut']) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.turn(signal);
    let cancelling: Promise<void> | undefined;
    let connection: ReportConnection | undefined;
    const onGone = () => {
      cancelling ??= connection?.cancel().catch(() => {});
    };
    try {
      connection = await this.connect();
      if (signal?.aborted) throw clientGone();
      signal?.addEventListener('abort', onGone, { once: true });
      return await report(connection.db, connection.copyOut);
    } catch (error) {
      if (signal?.aborted) throw clientGone();
      if (queryCancelled(error)) throw reportTooLong();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onGone);
      // The cancel travels on a connection of its own: wait for it, so it cannot reach the connection's next user.
      if (cancelling) await cancelling;
      connection?.release(cancelling !== undefined);
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
      const onAbort = () => leave(clientGone());
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
    // The exports write their values into COPY statements as literals (decision 0111), which are safe only
    // with backslashes taken literally: PostgreSQL's default, made certain here.
    options: '-c standard_conforming_strings=on',
  });
  // A dropped idle connection is replaced by the pool; the next report sees any real outage.
  pool.on('error', () => {});
  const connect = async (): Promise<ReportConnection> => {
    const client = await pool.connect();
    return {
      db: drizzle(client, { schema }) as unknown as Db,
      copyOut: (statement) => client.query(copyTo(statement)),
      // pg keeps the backend's process id from the start-up handshake but does not type it.
      cancel: () => cancelBackend(database.url!, (client as unknown as { processID?: number }).processID),
      release: (cancelled) => client.release(cancelled),
    };
  };
  return new Reports(database.db, settings, connect, () => pool.end());
}

/**
 * PostgreSQL stops a running statement only when asked from another connection; this one lives for the
 * request alone, so a full pool can never keep the cancel from going out.
 */
async function cancelBackend(url: string, processId: number | undefined): Promise<void> {
  if (!processId) return;
  const client = new pg.Client({ connectionString: withDefaultUser(url), application_name: 'site-reports-cancel', connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('select pg_cancel_backend($1)', [processId]);
  } finally {
    await client.end();
  }
}
