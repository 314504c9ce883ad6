import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/migrate';
import { writeBackup } from './backup';
import { askRunningServer, startControlSocket } from '../operations/control-socket';
import { DiskFileStore } from './files';
import { openPrivateDatabase, secureDataDir } from './private-data';

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;

/** Every path under `dir` (itself included) whose group or other bits are set, with its mode. */
function openToOthers(dir: string): string[] {
  const all = [dir, ...fs.readdirSync(dir, { recursive: true }).map((name) => path.join(dir, String(name)))];
  return all.filter((p) => !fs.lstatSync(p).isSymbolicLink() && (modeOf(p) & 0o077) !== 0).map((p) => `${p} ${modeOf(p).toString(8)}`);
}

describe('DATA_DIR is private to the service user', () => {
  const made: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'private-data-'));
    made.push(dir);
    return dir;
  };
  let umask: number;
  beforeEach(() => {
    // As in a container whose umask is 0000: nothing may rely on an inherited umask.
    umask = process.umask(0o000);
  });
  afterEach(() => {
    process.umask(umask);
  });
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the file store and backups write 0600 files in 0700 folders whatever the umask', async () => {
    const dir = tempDir();
    const store = new DiskFileStore(path.join(dir, 'files'));
    await store.put('books/1/ebook/book.epub', Buffer.from('epub'), 'application/epub+zip');
    await store.write('copies/7/ebook-abc.epub', Readable.from([Buffer.from('copy')]), 'application/epub+zip');
    expect(modeOf(path.join(dir, 'files/books/1/ebook/book.epub'))).toBe(0o600);
    expect(modeOf(path.join(dir, 'files/copies/7/ebook-abc.epub'))).toBe(0o600);
    for (const folder of ['files', 'files/books', 'files/books/1/ebook', 'files/copies/7']) expect(modeOf(path.join(dir, folder)), folder).toBe(0o700);
  });

  it('the server start creates PGlite, the stored files, the backup socket and backups for its user only', { timeout: 180_000 }, async () => {
    const dataDir = path.join(tempDir(), 'data');
    const logs: string[] = [];
    const log = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(`WARN ${m}`) };
    // The server's own way in (main.ts): private umask, DATA_DIR made private, PGlite opened and tightened.
    const database = await openPrivateDatabase({ DATABASE_URL: undefined, S3_BUCKET: undefined, dataDir }, {}, log);
    try {
      await runMigrations(database);
      const files = new DiskFileStore(path.join(dataDir, 'files'));
      await files.put('books/1/ebook/master.epub', Buffer.from('master'), 'application/epub+zip');
      const control = await startControlSocket(dataDir, { database, files, log: { info: () => undefined, error: () => undefined } });
      const backup = path.join(dataDir, '..', 'site.tar.gz');
      try {
        expect(await askRunningServer(dataDir, { command: 'backup', out: backup })).toMatchObject({ ok: true });
        expect(modeOf(path.join(dataDir, 'control.sock'))).toBe(0o600);
        expect(modeOf(backup)).toBe(0o600);
        await writeBackup(database, files, `${backup}.second`);
        expect(modeOf(`${backup}.second`)).toBe(0o600);
      } finally {
        await control.close();
      }
      // Written while the database runs: a table, its index, the write-ahead log.
      await database.exec("create table scratch (n int primary key, t text); insert into scratch select g, repeat('x', 500) from generate_series(1, 5000) g; checkpoint;");
    } finally {
      await database.close();
    }
    expect(fs.readdirSync(path.join(dataDir, 'pglite')).length).toBeGreaterThan(10);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(modeOf(dataDir)).toBe(0o700);
    // A first start is no news for the operator.
    expect(logs).toEqual([]);
  });

  it('tightens an existing 0777 DATA_DIR and tells the operator, leaving symbolic links and their targets alone', async () => {
    const dataDir = tempDir();
    const outside = path.join(tempDir(), 'shared.txt');
    fs.writeFileSync(outside, 'not ours');
    fs.chmodSync(outside, 0o644);
    fs.mkdirSync(path.join(dataDir, 'files/books'), { recursive: true, mode: 0o777 });
    fs.writeFileSync(path.join(dataDir, 'files/books/book.epub'), 'book', { mode: 0o666 });
    fs.writeFileSync(path.join(dataDir, 'files/run.sh'), '#!/bin/sh', { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'files/private.key'), 'k', { mode: 0o600 });
    fs.symlinkSync(outside, path.join(dataDir, 'files/link'));
    fs.chmodSync(dataDir, 0o777);

    const logs: string[] = [];
    const report = await secureDataDir(dataDir, { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) });

    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'files'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'files/books'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'files/books/book.epub'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'files/run.sh'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'files/private.key'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
    expect(report).toEqual({ tightened: 5, failed: [] });
    expect(logs).toEqual([
      `DATA_DIR ${dataDir}: 5 folders and files were open to other users of this machine; they are now private to the service's user (0700/0600).`,
    ]);
    expect(openToOthers(dataDir)).toEqual([]);

    // Already private: nothing to say on the next start.
    logs.length = 0;
    expect(await secureDataDir(dataDir, { info: (m) => logs.push(m), warn: (m) => logs.push(m) })).toEqual({ tightened: 0, failed: [] });
    expect(logs).toEqual([]);
  });
});
