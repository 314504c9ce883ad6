import { loadConfig } from '../config';
import { openDatabase } from './client';
import { runMigrations } from './migrate';

const config = loadConfig();
// A database created here is for the service's user only; the server tightens what PGlite opens at its start.
process.umask(0o077);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
await runMigrations(database);
await database.close();
console.log(`Migrations applied (${database.kind}).`);
