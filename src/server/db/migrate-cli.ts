import { loadConfig } from '../config';
import { openDatabase } from './client';
import { runMigrations } from './migrate';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
await runMigrations(database);
await database.close();
console.log(`Migrations applied (${database.kind}).`);
