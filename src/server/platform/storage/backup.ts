import fs from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { is, type SQL, sql } from 'drizzle-orm';
import { PgTable as PgTableClass } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import * as schema from '../../db/schema';
import type { FileStore } from './files';
import { TarWriter, readTar } from './tar';
import { PRIVATE_FILE_MODE } from './private-data';

/**
 * Backups (decisions 0042 and 0068): one .tar.gz holding
 *   manifest.json                  what the archive is (format, time, database kind, migrations, tables)
 *   database/<table>/<n>.jsonl     the rows of each table, one JSON object a line, in parts of about
 *                                  256 KB, all read from ONE snapshot (a REPEATABLE READ, READ ONLY
 *                                  transaction) through a cursor, tables in foreign-key order
 *   database/rows.json             how many rows each table had, written once they are all in
 *   files/<n>.json + files/<n>     each stored file's key and content type, then its bytes
 * Everything is streamed: a part is fetched, written into the gzip stream (waiting while it drains) and
 * dropped, so memory stays flat however large the site. Between parts the backup yields to the event loop,
 * which on PGlite (whose queries run on the site's own thread) keeps the site answering.
 * The dump is logical and made with SQL on the site's own connection, so it works the same on PGlite
 * and on PostgreSQL and needs no pg_dump of a matching version. Files are copied after the snapshot;
 * every file the snapshot refers to must be there, else the whole backup is taken again.
 * Restore still reads format 1 (one database/<table>.jsonl entry a table, row counts in the manifest).
 */
export const BACKUP_FORMAT = 'wwtd-backup/2';
const FORMAT_1 = 'wwtd-backup/1';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT | typeof FORMAT_1;
  createdAt: string;
  databaseKind: Database['kind'];
  migrations: number;
  /** Format 1 counts the rows here; format 2 names the tables and counts them in database/rows.json. */
  tables: Array<{ name: string; rows?: number }>;
}

export interface TableCount {
  name: string;
  rows: number;
}

export interface BackupReport {
  manifest: BackupManifest;
  tables: TableCount[];
  files: number;
  bytes: number;
}

/**
 * Tables the database keeps itself from the others (decision 0104: triggers on purchases, users, subscribers,
 * activities and download links). A backup leaves them out; restoring the rows they are made of, through the
 * same triggers, makes them again, so a restored site never counts a sale twice.
 */
const DERIVED_TABLES = new Set<unknown>([schema.salesDaily, schema.rowCounts, schema.subscribedReaders]);

/** The site's tables, parents before children, so rows restore without breaking a foreign key. */
export function tablesInDependencyOrder(): PgTable[] {
  const tables = Object.values(schema).filter((v) => is(v, PgTableClass) && !DERIVED_TABLES.has(v)) as PgTable[];
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

/**
 * Lets timers, sockets and other requests run. PGlite executes each query on this thread and its promise
 * settles without giving the event loop a turn, so a run of queries (even tiny ones on empty tables) would
 * otherwise hold the site for as long as the whole run takes.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * About this much JSON per archive part and per restore insert: small next to any heap, and on PGlite a
 * few milliseconds of the site's thread per fetch.
 */
const PART_BYTES = 256 * 1024;
const MIN_FETCH = 16;
const MAX_FETCH = 2000;

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

/**
 * One query of a backup or restore, then a turn of the event loop. With `share`, the query's time was
 * the site's own thread (PGlite), so it then waits as long again (up to 50 ms): requests get at least
 * half the thread, which keeps /healthz quick even on a busy machine. On PostgreSQL the time was spent
 * by the server, and one turn is enough; restore runs with no site to share with.
 */
async function step(tx: Tx, query: SQL, share = false): Promise<Array<Record<string, unknown>>> {
  const start = performance.now();
  const result = await tx.execute(query);
  const took = performance.now() - start;
  if (share) await new Promise((resolve) => setTimeout(resolve, Math.min(50, took)));
  else await yieldToEventLoop();
  return rowsOf(result);
}

/**
 * Streams one table into the archive through a cursor, in parts of about PART_BYTES: how many rows to
 * fetch next follows the width of the rows just read, so a table of long mails and one of short ids both
 * make parts of about that size.
 */
async function streamTable(tx: Tx, tar: TarWriter, name: string, share: boolean): Promise<number> {
  await step(tx, sql`declare backup_rows no scroll cursor for select row_to_json(t)::text as r from ${sql.identifier(name)} t`, share);
  let fetch = 50;
  let rows = 0;
  for (let part = 1; ; part += 1) {
    const batch = await step(tx, sql`fetch forward ${sql.raw(String(fetch))} from backup_rows`, share);
    if (batch.length === 0) break;
    const data = Buffer.from(batch.map((row) => `${String(row.r)}\n`).join(''));
    await tar.add(`database/${name}/${String(part).padStart(6, '0')}.jsonl`, data);
    rows += batch.length;
    fetch = Math.max(MIN_FETCH, Math.min(MAX_FETCH, Math.round((batch.length * PART_BYTES) / data.length)));
  }
  await step(tx, sql`close backup_rows`, share);
  return rows;
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
  const temp = `${outFile}.partial`;
  const gzip = zlib.createGzip({ level: 6 });
  // The archive holds every account and book: readable by the service's user only, like DATA_DIR.
  const done = pipeline(gzip, fs.createWriteStream(temp, { mode: PRIVATE_FILE_MODE }));
  const tar = new TarWriter(gzip);
  let bytes = 0;
  try {
    // PGlite runs in this process: give the site its share of the thread (see step).
    const share = database.kind === 'pglite';
    const snap = await database.db.transaction(async (tx) => {
      await step(tx, sql`set transaction isolation level repeatable read, read only`, share);
      const m = await step(tx, sql`select count(*)::int as n from drizzle.__drizzle_migrations`, share);
      const referenced = (await step(tx, sql`select distinct file_url as k from digital_assets`, share)).map((r) => String(r.k));
      const names = tablesInDependencyOrder().map((t) => getTableConfig(t).name);
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        createdAt: createdAt.toISOString(),
        databaseKind: database.kind,
        migrations: Number(m[0]?.n ?? 0),
        tables: names.map((name) => ({ name })),
      };
      await tar.add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
      const tables: TableCount[] = [];
      for (const name of names) tables.push({ name, rows: await streamTable(tx, tar, name, share) });
      await tar.add('database/rows.json', Buffer.from(JSON.stringify({ tables })));
      return { manifest, tables, referenced };
    });

    const referenced = new Set(snap.referenced);
    const keys = await files.list();
    const listed = new Set(keys);
    // A file the snapshot names but the listing lacks was added since (it is copied) or replaced since
    // (gone: the backup is taken again, below).
    for (const key of referenced) if (!listed.has(key)) keys.push(key);
    let n = 0;
    for (const key of keys) {
      const stat = await files.stat(key);
      if (!stat) {
        if (referenced.has(key)) throw new FileChangedError(`files changed during the backup: ${key}`);
        continue; // removed since the listing and not referenced: nothing to keep
      }
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
    return { manifest: snap.manifest, tables: snap.tables, files: n, bytes };
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

/** Refuses to restore over a site that has anything in it (in the file store too, unless its files stay in place). */
export async function assertEmptyTarget(database: Database, files: FileStore, filesInPlace = false): Promise<void> {
  for (const table of tablesInDependencyOrder()) {
    const name = getTableConfig(table).name;
    const result = await database.db.execute(sql`select exists(select 1 from ${sql.identifier(name)}) as any`);
    if (rowsOf(result)[0]?.any) {
      throw new RestoreRefusedError(`the database is not empty (table ${name} has rows); restore into an empty database or DATA_DIR`);
    }
  }
  if (!filesInPlace && (await files.list()).length > 0) {
    throw new RestoreRefusedError('the file store is not empty; restore into an empty DATA_DIR or bucket');
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The JSON lines of an archive entry, one at a time, without holding the entry (a format 1 table can be huge). */
async function* jsonLines(body: Readable): AsyncGenerator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    const data = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    let from = 0;
    for (let at = data.indexOf(10, from); at >= 0; at = data.indexOf(10, from)) {
      // A newline byte never occurs inside a multi-byte UTF-8 character, so splitting here is safe.
      if (at > from) yield data.toString('utf8', from, at);
      from = at + 1;
    }
    rest = Buffer.from(data.subarray(from));
  }
  if (rest.length) yield rest.toString('utf8');
}

/** Which table an archive entry holds rows of, in either format; null for anything else. */
function tableOfEntry(name: string, format: BackupManifest['format']): string | null {
  const match = format === FORMAT_1 ? /^database\/([a-z0-9_]+)\.jsonl$/.exec(name) : /^database\/([a-z0-9_]+)\/\d+\.jsonl$/.exec(name);
  return match ? match[1] : null;
}

/**
 * Restores an archive into a migrated, empty database and an empty file store, reading it as a stream:
 * rows go in as they are read, a batch of about a megabyte at a time, all in one transaction (all or
 * nothing), with the id sequences moved past the restored ids; files are written as they come.
 */
export interface RestoreOptions {
  /**
   * The file store is the one the backup was taken from (a move from PGlite to PostgreSQL on the same
   * DATA_DIR or bucket): a file already there with the archive's size is kept, and only a missing or
   * different one is written.
   */
  filesInPlace?: boolean;
}

export async function restoreBackup(database: Database, files: FileStore, archive: string, options: RestoreOptions = {}): Promise<BackupReport> {
  await assertEmptyTarget(database, files, options.filesInPlace);
  const current = await appliedMigrations(database);
  const source = fs.createReadStream(archive).pipe(zlib.createGunzip());
  const entries = readTar(source)[Symbol.asyncIterator]();
  const first = await entries.next();
  if (first.done) throw new RestoreRefusedError('not a site backup (empty archive)');
  if (first.value.name !== 'manifest.json') throw new RestoreRefusedError('not a site backup (no manifest first)');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse((await readAll(first.value.body)).toString('utf8')) as BackupManifest;
  } catch {
    throw new RestoreRefusedError('not a site backup (unreadable manifest)');
  }
  if (manifest.format !== BACKUP_FORMAT && manifest.format !== FORMAT_1) {
    throw new RestoreRefusedError(`not a site backup (${String(manifest.format)})`);
  }
  if (manifest.migrations > current) {
    throw new RestoreRefusedError(
      `the backup comes from a newer version (${manifest.migrations} migrations, this one has ${current}); restore it with that version or later`,
    );
  }
  const known = new Set(tablesInDependencyOrder().map((t) => getTableConfig(t).name));
  const inserted = new Map<string, number>();
  let expected: TableCount[] | null = manifest.format === FORMAT_1 ? manifest.tables.map((t) => ({ name: t.name, rows: t.rows ?? 0 })) : null;
  let pendingFile: { key: string; contentType: string | null } | null = null;
  let count = 0;
  let bytes = 0;

  await database.db.transaction(async (tx) => {
    const insert = async (table: string, lines: string[]) => {
      const id = sql.identifier(table);
      await step(tx, sql`insert into ${id} select * from json_populate_recordset(null::${id}, ${`[${lines.join(',')}]`}::json)`);
      inserted.set(table, (inserted.get(table) ?? 0) + lines.length);
    };
    // Every row the backup counted must be in before any file is written: an archive cut short (or
    // edited) restores nothing. Then the id sequences move past the restored ids.
    let databaseDone = false;
    const finishDatabase = async () => {
      if (databaseDone) return;
      databaseDone = true;
      if (!expected) throw new RestoreRefusedError('the backup is incomplete (no row counts at the end of its tables)');
      for (const t of expected) {
        if ((inserted.get(t.name) ?? 0) !== t.rows) {
          throw new RestoreRefusedError(`the backup is incomplete: table ${t.name} should have ${t.rows} rows, the archive held ${inserted.get(t.name) ?? 0}`);
        }
      }
      for (const table of tablesInDependencyOrder()) {
        const config = getTableConfig(table);
        for (const column of config.columns) {
          if (column.columnType !== 'PgSerial') continue;
          await step(
            tx,
            sql`select setval(pg_get_serial_sequence(${config.name}, ${column.name}), coalesce(max(${sql.identifier(column.name)}), 0) + 1, false) from ${sql.identifier(config.name)}`,
          );
        }
      }
    };
    for await (const entry of { [Symbol.asyncIterator]: () => entries }) {
      const table = tableOfEntry(entry.name, manifest.format);
      if (table) {
        if (databaseDone) throw new RestoreRefusedError(`not a site backup (${entry.name} after the files)`);
        if (!known.has(table)) throw new RestoreRefusedError(`the backup has a table this version does not know: ${table}`);
        let lines: string[] = [];
        let size = 0;
        for await (const line of jsonLines(entry.body)) {
          lines.push(line);
          size += line.length;
          if (size >= PART_BYTES || lines.length >= MAX_FETCH) {
            await insert(table, lines);
            lines = [];
            size = 0;
          }
        }
        if (lines.length) await insert(table, lines);
      } else if (entry.name === 'database/rows.json' && manifest.format === BACKUP_FORMAT) {
        expected = (JSON.parse((await readAll(entry.body)).toString('utf8')) as { tables: TableCount[] }).tables;
      } else if (entry.name.startsWith('files/')) {
        await finishDatabase();
        if (entry.name.endsWith('.json')) {
          pendingFile = JSON.parse((await readAll(entry.body)).toString('utf8'));
        } else if (pendingFile) {
          if (options.filesInPlace && (await files.stat(pendingFile.key))?.size === entry.size) entry.body.resume();
          else await files.write(pendingFile.key, entry.body.pipe(new PassThrough()), pendingFile.contentType ?? 'application/octet-stream');
          count += 1;
          bytes += entry.size;
          pendingFile = null;
        } else {
          entry.body.resume();
        }
      } else {
        entry.body.resume();
      }
    }
    await finishDatabase();
  });
  return { manifest, tables: expected!, files: count, bytes };
}

/**
 * Moves a site to another database (PGlite to PostgreSQL): a backup of `source` written to `archive`, then
 * restored into the empty `target`. The file store is shared by both, so its files stay where they are;
 * the archive remains as a backup of the site before the move.
 */
export async function moveToDatabase(source: Database, target: Database, files: FileStore, archive: string): Promise<BackupReport> {
  await assertEmptyTarget(target, files, true);
  await writeBackup(source, files, archive);
  return restoreBackup(target, files, archive, { filesInPlace: true });
}
