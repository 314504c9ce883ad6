import fs from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { is, sql } from 'drizzle-orm';
import { PgTable as PgTableClass } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import * as schema from '../db/schema';
import type { FileStore } from './files';
import { TarWriter, readTar } from './tar';
import { PRIVATE_FILE_MODE } from './private-data';

/**
 * Backups (decision 0042): one .tar.gz holding
 *   manifest.json             what the archive is (format, time, database kind, migrations applied)
 *   database/<table>.jsonl    every row of every table, one JSON object a line, from ONE snapshot
 *                             (a REPEATABLE READ, READ ONLY transaction), in foreign-key order
 *   files/<n>.json + files/<n> each stored file's key and content type, then its bytes
 * The dump is logical and made with SQL on the site's own connection, so it works the same on PGlite
 * and on PostgreSQL and needs no pg_dump of a matching version. Files are copied after the snapshot;
 * every file the snapshot refers to must be there, else the whole backup is taken again.
 */
export const BACKUP_FORMAT = 'wwtd-backup/1';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  databaseKind: Database['kind'];
  migrations: number;
  tables: Array<{ name: string; rows: number }>;
}

export interface BackupReport {
  manifest: BackupManifest;
  files: number;
  bytes: number;
}

/** The site's tables, parents before children, so rows restore without breaking a foreign key. */
export function tablesInDependencyOrder(): PgTable[] {
  const tables = Object.values(schema).filter((v) => is(v, PgTableClass)) as PgTable[];
  const nameOf = (t: PgTable) => getTableConfig(t).name;
  const byName = new Map(tables.map((t) => [nameOf(t), t]));
  const ordered: PgTable[] = [];
  const seen = new Set<string>();
  const visit = (t: PgTable) => {
    const name = nameOf(t);
    if (seen.has(name)) return;
    seen.add(name);
    for (const fk of getTableConfig(t).foreignKeys) {
      const parent = nameOf(fk.reference().foreignTable);
      if (parent !== name && byName.has(parent)) visit(byName.get(parent)!);
    }
    ordered.push(t);
  };
  for (const t of tables) visit(t);
  return ordered;
}

type Rows = { rows: Array<Record<string, unknown>> };
const rowsOf = (result: unknown) => (result as Rows).rows;

async function appliedMigrations(database: Database): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

/** Every row of every table, from one consistent snapshot. */
async function snapshot(database: Database): Promise<{ tables: Array<{ name: string; lines: string[] }>; migrations: number }> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    const tables: Array<{ name: string; lines: string[] }> = [];
    for (const table of tablesInDependencyOrder()) {
      const name = getTableConfig(table).name;
      const result = await tx.execute(sql`select row_to_json(t)::text as r from ${sql.identifier(name)} t`);
      tables.push({ name, lines: rowsOf(result).map((row) => String(row.r)) });
    }
    const m = await tx.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    return { tables, migrations: Number(rowsOf(m)[0]?.n ?? 0) };
  });
}

/** File keys the database refers to. */
function referencedKeys(tables: Array<{ name: string; lines: string[] }>): string[] {
  const assets = tables.find((t) => t.name === 'digital_assets');
  return (assets?.lines ?? []).map((line) => JSON.parse(line).file_url as string).filter(Boolean);
}

/** Writes a backup archive to `out` (a .tar.gz). */
export async function writeBackup(
  database: Database,
  files: FileStore,
  outFile: string,
  now: () => Date = () => new Date(),
): Promise<BackupReport> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await writeBackupOnce(database, files, outFile, now());
    } catch (error) {
      if (!(error instanceof FileChangedError) || attempt >= 3) throw error;
    }
  }
}

class FileChangedError extends Error {}

async function writeBackupOnce(database: Database, files: FileStore, outFile: string, createdAt: Date): Promise<BackupReport> {
  const snap = await snapshot(database);
  const keys = await files.list();
  const missing = referencedKeys(snap.tables).filter((k) => !keys.includes(k));
  if (missing.length) {
    // A file replaced between the snapshot and the listing: take the snapshot again.
    const stillThere = await Promise.all(missing.map((k) => files.stat(k)));
    if (stillThere.some((s) => !s)) throw new FileChangedError(`files changed during the backup: ${missing.join(', ')}`);
    keys.push(...missing);
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    createdAt: createdAt.toISOString(),
    databaseKind: database.kind,
    migrations: snap.migrations,
    tables: snap.tables.map((t) => ({ name: t.name, rows: t.lines.length })),
  };
  const temp = `${outFile}.partial`;
  const gzip = zlib.createGzip({ level: 6 });
  // The archive holds every account and book: readable by the service's user only, like DATA_DIR.
  const done = pipeline(gzip, fs.createWriteStream(temp, { mode: PRIVATE_FILE_MODE }));
  const tar = new TarWriter(gzip);
  let bytes = 0;
  try {
    await tar.add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
    for (const t of snap.tables) {
      await tar.add(`database/${t.name}.jsonl`, Buffer.from(t.lines.map((l) => `${l}\n`).join('')));
    }
    let n = 0;
    for (const key of keys) {
      const stat = await files.stat(key);
      if (!stat) continue; // removed since the listing and not referenced: nothing to keep
      n += 1;
      const entry = `files/${String(n).padStart(6, '0')}`;
      await tar.add(`${entry}.json`, Buffer.from(JSON.stringify({ key, size: stat.size, contentType: stat.contentType ?? null })));
      try {
        await tar.addStream(entry, stat.size, await files.read(key));
      } catch (error) {
        throw new FileChangedError(String((error as Error).message));
      }
      bytes += stat.size;
    }
    await tar.finish();
    await done;
    fs.renameSync(temp, outFile);
    return { manifest, files: n, bytes };
  } catch (error) {
    gzip.destroy();
    await done.catch(() => undefined);
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/** Refuses to restore over a site that has anything in it. */
export async function assertEmptyTarget(database: Database, files: FileStore): Promise<void> {
  for (const table of tablesInDependencyOrder()) {
    const name = getTableConfig(table).name;
    const result = await database.db.execute(sql`select exists(select 1 from ${sql.identifier(name)}) as any`);
    if (rowsOf(result)[0]?.any) {
      throw new RestoreRefusedError(`the database is not empty (table ${name} has rows); restore into an empty database or DATA_DIR`);
    }
  }
  if ((await files.list()).length > 0) {
    throw new RestoreRefusedError('the file store is not empty; restore into an empty DATA_DIR or bucket');
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Restores an archive into a migrated, empty database and an empty file store. The rows go in one
 * transaction (all or nothing), with the id sequences moved past the restored ids.
 */
export async function restoreBackup(database: Database, files: FileStore, archive: string): Promise<BackupReport> {
  await assertEmptyTarget(database, files);
  const current = await appliedMigrations(database);
  const source = fs.createReadStream(archive).pipe(zlib.createGunzip());
  let manifest: BackupManifest | null = null;
  const tableRows = new Map<string, string[]>();
  let pendingFile: { key: string; contentType: string | null } | null = null;
  let count = 0;
  let bytes = 0;
  for await (const entry of readTar(source)) {
    if (entry.name === 'manifest.json') {
      manifest = JSON.parse((await readAll(entry.body)).toString('utf8')) as BackupManifest;
      if (manifest.format !== BACKUP_FORMAT) throw new RestoreRefusedError(`not a site backup (${String(manifest.format)})`);
      if (manifest.migrations > current) {
        throw new RestoreRefusedError(
          `the backup comes from a newer version (${manifest.migrations} migrations, this one has ${current}); restore it with that version or later`,
        );
      }
    } else if (!manifest) {
      throw new RestoreRefusedError('not a site backup (no manifest first)');
    } else if (entry.name.startsWith('database/')) {
      const name = entry.name.slice('database/'.length).replace(/\.jsonl$/, '');
      const text = (await readAll(entry.body)).toString('utf8');
      tableRows.set(name, text.split('\n').filter(Boolean));
    } else if (entry.name.startsWith('files/') && entry.name.endsWith('.json')) {
      pendingFile = JSON.parse((await readAll(entry.body)).toString('utf8'));
    } else if (entry.name.startsWith('files/') && pendingFile) {
      await files.write(pendingFile.key, entry.body.pipe(new PassThrough()), pendingFile.contentType ?? 'application/octet-stream');
      count += 1;
      bytes += entry.size;
      pendingFile = null;
    } else {
      entry.body.resume();
    }
  }
  if (!manifest) throw new RestoreRefusedError('not a site backup (empty archive)');
  await database.db.transaction(async (tx) => {
    for (const table of tablesInDependencyOrder()) {
      const config = getTableConfig(table);
      const lines = tableRows.get(config.name) ?? [];
      for (let i = 0; i < lines.length; i += 500) {
        const batch = `[${lines.slice(i, i + 500).join(',')}]`;
        const id = sql.identifier(config.name);
        await tx.execute(sql`insert into ${id} select * from json_populate_recordset(null::${id}, ${batch}::json)`);
      }
      for (const column of config.columns) {
        if (column.columnType !== 'PgSerial') continue;
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${config.name}, ${column.name}), coalesce(max(${sql.identifier(column.name)}), 0) + 1, false) from ${sql.identifier(config.name)}`,
        );
      }
    }
  });
  return { manifest, files: count, bytes };
}
