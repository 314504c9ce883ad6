import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type every service receives; PGlite and PostgreSQL both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: services accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Connection string for PostgreSQL; undefined on PGlite. */
  url?: string;
  /** Raw SQL on the underlying engine, for migrations, locks and health checks. */
  exec(sqlText: string): Promise<void>;
  ping(): Promise<void>;
  /**
   * Subscribes to a notification channel (PostgreSQL LISTEN). `onGap` runs when notifications may have been
   * missed (the listening connection was lost and has come back), so the caller can resynchronise.
   */
  listen(channel: string, onMessage: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>>;
  /** Sends a notification to every listener on every instance sharing this database. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Directory for PGlite's files; omitted means an in-memory database (tests). */
  dataDir?: string;
  poolSize?: number;
  onIdleError?: (error: Error) => void;
}

/** Like libpq, a URL without a user name connects as the operating-system user. */
export function withDefaultUser(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (!url.username) url.username = process.env.PGUSER ?? os.userInfo().username;
  return url.toString();
}

/**
 * PGlite tuned for a small server. Its buffers live inside the process (WASM memory), and the public reads
 * are served from the app's own cache, so PostgreSQL's 128 MB of shared buffers mostly held copies of what
 * the app already keeps; 16 MB holds this site's whole working set and keeps the process well under 300 MB.
 */
const PGLITE_OPTIONS = {
  // The admin searches' trigram indexes (migration 0018) need the extension in every process that writes.
  extensions: { pg_trgm },
  startParams: [
    ...PGlite.defaultStartParams,
    ...['-c', 'shared_buffers=16MB', '-c', 'wal_buffers=1MB', '-c', 'temp_buffers=2MB', '-c', 'maintenance_work_mem=16MB'],
  ],
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: withDefaultUser(options.databaseUrl),
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
      // An unreachable server fails requests in seconds (503) instead of holding them open.
      connectionTimeoutMillis: 5_000,
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
    // replaces it and the next query reports any real outage.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      url: options.databaseUrl,
      exec: async (text) => {
        await pool.query(text);
      },
      ping: async () => {
        await pool.query('select 1');
      },
      listen: (channel, onMessage, onGap) =>
        listenOnPostgres(withDefaultUser(options.databaseUrl!), channel, onMessage, onGap, options.onIdleError),
      notify: async (channel, payload) => {
        await pool.query('select pg_notify($1, $2)', [channel, payload]);
      },
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, 'pglite');
    // The service's user only (decision 0064); PGlite's own file modes are tightened by the caller once it is up.
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  // One options object: given a directory or undefined (in memory), the two-argument form drops the options.
  const client = new PGlite({ dataDir, ...PGLITE_OPTIONS });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    exec: async (text) => {
      await client.exec(text);
    },
    ping: async () => {
      await client.query('select 1');
    },
    // One process owns a PGlite directory, so its notifications only ever reach this process; they still go
    // through the engine so both engines share one invalidation path.
    listen: async (channel, onMessage) => {
      const stop = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: () => client.close(),
  };
}

/**
 * LISTEN needs a connection of its own that stays open (a pooled one would be handed to other queries).
 * When it drops, it reconnects with a growing delay and reports the gap: notifications sent meanwhile are lost.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onGap?: () => void,
  onError?: (error: Error) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = 100;
  const quoted = `"${channel.replace(/"/g, '""')}"`;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel === channel) onMessage(n.payload ?? '');
    });
    c.on('error', (error) => {
      onError?.(error);
      reconnect(c);
    });
    c.on('end', () => reconnect(c));
    await c.connect();
    await c.query(`LISTEN ${quoted}`);
    client = c;
    delay = 100;
  };
  const reconnect = (from: pg.Client) => {
    if (stopped || client !== from) return;
    client = null;
    from.removeAllListeners('end');
    void from.end().catch(() => {});
    const attempt = () => {
      retry = null;
      if (stopped) return;
      connect().then(
        () => onGap?.(),
        (error: Error) => {
          onError?.(error);
          delay = Math.min(delay * 2, 5000);
          retry = setTimeout(attempt, delay);
          retry.unref();
        },
      );
    };
    retry = setTimeout(attempt, delay);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  };
}
