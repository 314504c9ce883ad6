import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Database, withDefaultUser } from './client';
import { findProjectRoot } from '../project-root';

export function migrationsFolder(): string {
  return path.join(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))), 'src/server/db/migrations');
}

/** An arbitrary constant: every instance takes the same advisory lock, so only one migrates at a time. */
const MIGRATION_LOCK_ID = 724_117_001;

export async function runMigrations(database: Database): Promise<void> {
  const folder = migrationsFolder();
  if (database.kind === 'pglite' || !database.url) {
    await migratePglite(database.db as never, { migrationsFolder: folder });
    return;
  }
  // Several instances may start at once against one PostgreSQL: one session holds the lock and migrates.
  const client = new pg.Client({ connectionString: withDefaultUser(database.url) });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(client), { migrationsFolder: folder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}
