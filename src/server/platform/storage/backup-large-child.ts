// Run by backup-large.test.ts in a child process with a small heap (node --max-old-space-size=…): generates
// a mail outbox several times larger than that heap, backs it up, restores it into a second empty database
// and prints one JSON line with what it found. A backup or restore that held the rows in memory dies here
// with "JavaScript heap out of memory" instead of printing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createTestDatabase } from '../../test/database';
import { fillOutbox } from '../../test/large-outbox';
import { restoreBackup, writeBackup } from './backup';
import { DiskFileStore } from './files';

const rows = Number(process.env.LARGE_ROWS ?? 20_000);
/** Characters of text and of html per mail: a row is about twice this in the archive. */
const width = Number(process.env.LARGE_WIDTH ?? 4_000);

const freshDatabase = () => createTestDatabase({ poolSize: 2 });

type Rows = { rows: Array<Record<string, unknown>> };
/** Row count, total text length and a digest of every body, computed by the database (not in this heap). */
async function fingerprint(database: Database) {
  const result = (await database.db.execute(
    sql.raw(`select count(*)::int as n, coalesce(sum(length(text_body) + length(html_body)), 0)::bigint::text as chars,
            md5(coalesce(string_agg(md5(text_body || html_body), '' order by id), '')) as digest
       from mail_outbox`),
  )) as unknown as Rows;
  const row = result.rows[0];
  return { rows: Number(row.n), chars: Number(row.chars), digest: String(row.digest) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-large-'));
const source = await freshDatabase();
const target = await freshDatabase();
try {
  await fillOutbox(source, rows, width);
  const before = await fingerprint(source);
  const archive = path.join(dir, 'large.tar.gz');
  const sourceFiles = new DiskFileStore(path.join(dir, 'files-a'));
  const targetFiles = new DiskFileStore(path.join(dir, 'files-b'));
  fs.mkdirSync(path.join(dir, 'files-a'));
  fs.mkdirSync(path.join(dir, 'files-b'));
  let peakHeap = 0;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);
  const t0 = Date.now();
  await writeBackup(source, sourceFiles, archive);
  const t1 = Date.now();
  await restoreBackup(target, targetFiles, archive);
  const t2 = Date.now();
  clearInterval(sampler);
  const after = await fingerprint(target);
  console.log(
    JSON.stringify({
      before,
      after,
      archiveBytes: fs.statSync(archive).size,
      backupMs: t1 - t0,
      restoreMs: t2 - t1,
      peakHeapMB: Math.round(peakHeap / 1048576),
      heapLimitMB: Math.round((await import('node:v8')).getHeapStatistics().heap_size_limit / 1048576),
    }),
  );
} finally {
  await source.drop();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}
