// npm run move-to-postgres -- postgres://…: moves a site from the embedded PGlite database in DATA_DIR to an
// empty PostgreSQL database. The files stay where they are (DATA_DIR or the bucket); the PGlite database is
// left untouched, and the archive the move goes through is kept as a backup of the site before it.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from './config';
import { runMigrations } from './db/migrate';
import { moveToDatabase } from './platform/storage/backup';
import { askRunningServer } from './platform/operations/control-socket';
import { createFileStore } from './platform/storage/files';
import { openPrivateDatabase } from './platform/storage/private-data';

const target = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!target || !/^postgres(ql)?:\/\//.test(target)) {
  console.error('Usage: npm run move-to-postgres -- postgres://USER@HOST:5432/DATABASE');
  process.exit(2);
}
const config = loadConfig();

async function run() {
  if (config.DATABASE_URL) throw new Error('DATABASE_URL is set: this site already runs on PostgreSQL');
  if (await askRunningServer(config.dataDir, { command: 'backup', out: '' })) {
    throw new Error('a site is running on this DATA_DIR; stop it first, so that nothing written during the move is lost');
  }
  const archive = path.join(config.dataDir, 'backups', `before-postgres-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  await fsp.mkdir(path.dirname(archive), { recursive: true, mode: 0o700 });
  const files = createFileStore(config);
  const postgres = await openPrivateDatabase({ ...config, DATABASE_URL: target }, { poolSize: 2 });
  try {
    await runMigrations(postgres);
    const pglite = await openPrivateDatabase(config, { poolSize: 2 });
    try {
      return { archive, report: await moveToDatabase(pglite, postgres, files, archive) };
    } finally {
      await pglite.close();
    }
  } finally {
    await postgres.close();
  }
}

try {
  const { archive, report } = await run();
  const rows = report.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`Moved ${rows} rows to PostgreSQL; the ${report.files} stored files stay where they are.`);
  console.log(`A backup of the site before the move: ${archive}`);
  console.log('Start the site with DATABASE_URL set to that database (and the same DATA_DIR, or bucket, for the files).');
} catch (error) {
  console.error(`Move failed: ${(error as Error).message}`);
  process.exit(1);
}
