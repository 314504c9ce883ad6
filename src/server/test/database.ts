/**
 * A fresh, migrated database for a test, apart from the app: child processes with a small heap (the large
 * backup test) use it without loading the app that the other helpers bring.
 */
import pg from 'pg';
import { openDatabase, type Database } from '../db/client';
import { runMigrations } from '../db/migrate';

/** A fresh, migrated database: in-memory PGlite, or a new database on TEST_DATABASE_URL's server. */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<Database & { drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({});
    await runMigrations(database);
    return { ...database, drop: () => database.close() };
  }
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template template0`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: options.poolSize ?? 20 });
  await runMigrations(database);
  return {
    ...database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // pool.end() resolves before its sockets have closed; forcing the drop while they are still
      // closing makes their late error an uncaught exception, so wait (briefly) for them to go.
      for (let i = 0; i < 40; i += 1) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
