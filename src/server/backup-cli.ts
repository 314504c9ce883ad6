// npm run backup -- --out FILE: one consistent .tar.gz of the database and the stored files, taken while
// the site runs (docs/decisions/0042-backups.md).
import path from 'node:path';
import { loadConfig } from './config';
import { writeBackup } from './platform/storage/backup';
import { askRunningServer } from './platform/operations/control-socket';
import { createFileStore } from './platform/storage/files';
import { openPrivateDatabase } from './platform/storage/private-data';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
if (!out) {
  console.error('Usage: npm run backup -- --out FILE (for example backups/site-2026-11-23.tar.gz)');
  process.exit(2);
}
const outFile = path.resolve(out);
const config = loadConfig();

async function run() {
  if (!config.DATABASE_URL) {
    // PGlite: a running server owns the database, so it writes the archive itself.
    const answer = await askRunningServer(config.dataDir, { command: 'backup', out: outFile });
    if (answer) {
      if (!answer.ok) throw new Error(String(answer.error));
      return answer.report as Awaited<ReturnType<typeof writeBackup>>;
    }
  }
  const database = await openPrivateDatabase(config, { poolSize: 2 });
  try {
    return await writeBackup(database, createFileStore(config), outFile);
  } finally {
    await database.close();
  }
}

try {
  const report = await run();
  const rows = report.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`Backup written to ${outFile}: ${rows} rows in ${report.tables.length} tables, ${report.files} files (${report.bytes} bytes).`);
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
