// npm run restore -- FILE: restores a backup into an empty database (DATABASE_URL, or PGlite in an empty
// DATA_DIR) and an empty file store. The site must not be running on that DATA_DIR.
import path from 'node:path';
import { loadConfig } from './config';
import { runMigrations } from './db/migrate';
import { restoreBackup } from './platform/storage/backup';
import { askRunningServer } from './platform/operations/control-socket';
import { createFileStore } from './platform/storage/files';
import { openPrivateDatabase } from './platform/storage/private-data';

const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) {
  console.error('Usage: npm run restore -- FILE');
  process.exit(2);
}
const config = loadConfig();

try {
  if (!config.DATABASE_URL && (await askRunningServer(config.dataDir, { command: 'backup', out: '' }))) {
    throw new Error('a site is running on this DATA_DIR; stop it and restore into an empty DATA_DIR');
  }
  const database = await openPrivateDatabase(config, { poolSize: 2 });
  try {
    await runMigrations(database);
    const report = await restoreBackup(database, createFileStore(config), path.resolve(file));
    const rows = report.tables.reduce((n, t) => n + t.rows, 0);
    console.log(`Restored ${rows} rows and ${report.files} files from the backup of ${report.manifest.createdAt}.`);
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
