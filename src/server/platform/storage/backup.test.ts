import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { eq, sql } from 'drizzle-orm';
import { contactMessages, digitalAssets, newsletterSubscribers, purchases, users } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp, createTestDatabase, createUser, signedInAgent } from '../../test/helpers';
import { buy, featuredBookId } from '../../features/checkout/test-support';
import { RestoreRefusedError, moveToDatabase, restoreBackup, tablesInDependencyOrder, writeBackup } from './backup';
import { DiskFileStore } from './files';
import { TarWriter, readTar } from './tar';
import type { Database } from '../../db/client';

/** An archive as the first backup format wrote it: each table whole in one entry, row counts in the manifest. */
async function writeFormat1Archive(database: Database, out: string) {
  const gzip = zlib.createGzip();
  const done = pipeline(gzip, fs.createWriteStream(out));
  const tar = new TarWriter(gzip);
  const tables: Array<{ name: string; lines: string[] }> = [];
  for (const table of tablesInDependencyOrder()) {
    const name = getTableConfig(table).name;
    const result = (await database.db.execute(sql`select row_to_json(t)::text as r from ${sql.identifier(name)} t`)) as unknown as { rows: Array<{ r: string }> };
    tables.push({ name, lines: result.rows.map((row) => row.r) });
  }
  const migrations = (await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: Array<{ n: number }> };
  const manifest = {
    format: 'wwtd-backup/1',
    createdAt: new Date().toISOString(),
    databaseKind: database.kind,
    migrations: migrations.rows[0].n,
    tables: tables.map((x) => ({ name: x.name, rows: x.lines.length })),
  };
  await tar.add('manifest.json', Buffer.from(JSON.stringify(manifest)));
  for (const x of tables) await tar.add(`database/${x.name}.jsonl`, Buffer.from(x.lines.map((l) => `${l}\n`).join('')));
  await tar.finish();
  await done;
}

/** A copy of an archive without the entries `drop` picks. */
async function copyArchiveWithout(from: string, to: string, drop: (name: string) => boolean) {
  const gzip = zlib.createGzip();
  const done = pipeline(gzip, fs.createWriteStream(to));
  const tar = new TarWriter(gzip);
  for await (const entry of readTar(fs.createReadStream(from).pipe(zlib.createGunzip()))) {
    if (drop(entry.name)) entry.body.resume();
    else await tar.addStream(entry.name, entry.size, entry.body);
  }
  await tar.finish();
  await done;
}

/** The dashboard's running totals (decision 0104), as the database keeps them. */
async function runningTotals(database: Database) {
  const read = async (query: string) => ((await database.db.execute(sql.raw(query))) as unknown as { rows: unknown[] }).rows;
  return {
    counts: await read('select name, n::int as n from row_counts order by name'),
    sales: await read('select day::text as day, book_id, format, sales, revenue::int as revenue from sales_daily where sales <> 0 order by 1, 2, 3'),
  };
}

describe('backup and restore', () => {
  let t: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-backup-'));
  const archive = path.join(dir, 'site.tar.gz');

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips a site with users, purchases and files into an empty database and file store', async () => {
    const reader = await createUser(t.database, { username: 'backup_reader', password: 'Restored-Horse-42' });
    const agent = await signedInAgent(t.app, reader.id);
    const bookId = await featuredBookId(t.app);
    await buy(agent, bookId, 'ebook');
    await t.app.deps.files.put('uploads/extra/notes.txt', Buffer.from('margin notes'), 'text/plain');
    await t.database.db.insert(newsletterSubscribers).values([
      { email: 'backup-waiting@example.com', state: 'unconfirmed' },
      { email: 'backup-reading@example.com', state: 'confirmed' },
      { email: 'backup-gone@example.com', state: 'unsubscribed', unsubscribedAt: new Date() },
    ]);
    await t.database.db.insert(contactMessages).values([
      { name: 'Unread', email: 'backup-unread@example.com', subject: 'Other', message: 'Still waiting' },
      { name: 'Read', email: 'backup-read@example.com', subject: 'Other', message: 'Answered', readAt: new Date() },
    ]);

    const report = await writeBackup(t.database, t.app.deps.files, archive);
    expect(fs.existsSync(archive)).toBe(true);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    expect(report.tables.find((x) => x.name === 'users')!.rows).toBeGreaterThanOrEqual(1);
    expect(report.files).toBeGreaterThanOrEqual(2);
    expect(report.tables.map((x) => x.name)).not.toContain('sales_daily');
    const totalsAtBackup = await runningTotals(t.database);
    expect(totalsAtBackup.sales).not.toEqual([]);
    const kept = new Map((totalsAtBackup.counts as Array<{ name: string; n: number }>).map((r) => [r.name, r.n]));
    const [list] = (
      (await t.database.db.execute(
        sql`select count(*)::int as subscribers, (count(*) filter (where state = 'unconfirmed'))::int as unconfirmed,
                   (select count(*)::int from contact_messages where read_at is null) as unread from newsletter_subscribers`,
      )) as unknown as { rows: Array<{ subscribers: number; unconfirmed: number; unread: number }> }
    ).rows;
    expect(list.subscribers).toBeGreaterThanOrEqual(3);
    expect(list.unread).toBeGreaterThanOrEqual(1);
    expect({ subscribers: kept.get('subscribers'), unconfirmed: kept.get('unconfirmed_subscribers'), unread: kept.get('unread_messages') }).toEqual(list);

    // The site goes on changing after the backup; the archive keeps the moment it was taken.
    await createUser(t.database, { username: 'after_backup' });

    const target = await createTestDatabase();
    const filesRoot = fs.mkdtempSync(path.join(dir, 'files-'));
    const restoredFiles = new DiskFileStore(filesRoot);
    try {
      const restored = await restoreBackup(target, restoredFiles, archive);
      expect(restored.files).toBe(report.files);

      const names = (await target.db.select({ u: users.username }).from(users)).map((r) => r.u);
      expect(names).toContain('backup_reader');
      expect(names).not.toContain('after_backup');
      const [purchase] = await target.db.select().from(purchases).where(eq(purchases.userId, reader.id));
      expect(purchase).toMatchObject({ format: 'ebook', status: 'completed' });
      // The running totals are not in the archive: the restored rows made them again, each sale once.
      expect(await runningTotals(target)).toEqual(totalsAtBackup);
      expect((await buffer(await restoredFiles.read('uploads/extra/notes.txt'))).toString()).toBe('margin notes');

      // The restored site works: the reader signs in with the same password and downloads the book.
      const site = await createTestApp({ database: target, files: restoredFiles, seed: false });
      try {
        const again = new TestAgent(site.app);
        const login = await again.post('/api/users/login', { username: 'backup_reader', password: 'Restored-Horse-42' });
        expect(login.statusCode, login.body).toBe(200);
        const asset = await again.get(`/api/books/${bookId}/assets?format=ebook`);
        expect(asset.statusCode, asset.body).toBe(200);
        const [row] = await target.db.select().from(digitalAssets).where(eq(digitalAssets.id, asset.json().asset.id));
        const original = await buffer(await t.app.deps.files.read(row.fileUrl));
        expect((await buffer(await restoredFiles.read(row.fileUrl))).equals(original)).toBe(true);
        // New rows get new ids: the sequences were moved past the restored ones.
        const fresh = await createUser(target, { username: 'after_restore' });
        expect(fresh.id).toBeGreaterThan(reader.id);
      } finally {
        await site.app.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('writes the rows of each table in parts and restores archives of the first format too', async () => {
    const names: string[] = [];
    for await (const entry of readTar(fs.createReadStream(archive).pipe(zlib.createGunzip()))) {
      names.push(entry.name);
      entry.body.resume();
    }
    expect(names[0]).toBe('manifest.json');
    expect(names).toContain('database/users/000001.jsonl');
    expect(names.indexOf('database/rows.json')).toBeGreaterThan(names.indexOf('database/users/000001.jsonl'));

    const old = path.join(dir, 'format-1.tar.gz');
    await writeFormat1Archive(t.database, old);
    const target = await createTestDatabase();
    try {
      const restored = await restoreBackup(target, new DiskFileStore(fs.mkdtempSync(path.join(dir, 'files-'))), old);
      expect(restored.manifest.format).toBe('wwtd-backup/1');
      const names = (await target.db.select({ u: users.username }).from(users)).map((r) => r.u);
      expect(names).toEqual(expect.arrayContaining(['backup_reader', 'after_backup']));
      const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(purchases);
      expect(await target.db.$count(purchases)).toBe(Number(n));
    } finally {
      await target.drop();
    }
  });

  it.each([
    ['the row counts at its end', 'database/rows.json', /the backup is incomplete \(no row counts/],
    ['part of a table', 'database/mail_outbox/000001.jsonl', /table mail_outbox should have [1-9]\d* rows, the archive held 0/],
  ])('restores nothing from an archive that lost %s', async (_what, lost, message) => {
    const cut = path.join(dir, 'cut.tar.gz');
    await copyArchiveWithout(archive, cut, (name) => name === lost);
    const target = await createTestDatabase();
    const targetFiles = new DiskFileStore(fs.mkdtempSync(path.join(dir, 'files-')));
    try {
      await expect(restoreBackup(target, targetFiles, cut)).rejects.toThrow(message);
      expect(await target.db.$count(users)).toBe(0);
      expect(await target.db.$count(purchases)).toBe(0);
      expect(await targetFiles.list()).toEqual([]);
    } finally {
      await target.drop();
    }
  });

  it('moves a site into an empty database, leaving its files where they are (PGlite to PostgreSQL)', async () => {
    const reader = await createUser(t.database, { username: 'moving_reader', password: 'Moving-Horse-42' });
    const agent = await signedInAgent(t.app, reader.id);
    await buy(agent, await featuredBookId(t.app), 'audiobook');
    const filesBefore = await t.app.deps.files.list();
    const sizesBefore = await Promise.all(filesBefore.map(async (key) => (await t.app.deps.files.stat(key))?.size));

    const target = await createTestDatabase();
    try {
      const moveArchive = path.join(dir, 'before-move.tar.gz');
      const report = await moveToDatabase(t.database, target, t.app.deps.files, moveArchive);
      expect(report.files).toBe(filesBefore.length);
      expect(fs.existsSync(moveArchive)).toBe(true);
      // The store is the one both databases use: nothing was added, removed or rewritten.
      expect(await t.app.deps.files.list()).toEqual(filesBefore);
      expect(await Promise.all(filesBefore.map(async (key) => (await t.app.deps.files.stat(key))?.size))).toEqual(sizesBefore);
      expect(await runningTotals(target)).toEqual(await runningTotals(t.database));

      // The moved site answers the reader from the new database with the same files.
      const site = await createTestApp({ database: target, files: t.app.deps.files, seed: false });
      try {
        const again = new TestAgent(site.app);
        const login = await again.post('/api/users/login', { username: 'moving_reader', password: 'Moving-Horse-42' });
        expect(login.statusCode, login.body).toBe(200);
        const library = await again.get('/api/library/books');
        expect(library.statusCode, library.body).toBe(200);
        expect(JSON.stringify(library.json())).toContain('audiobook');
      } finally {
        await site.app.close();
      }

      // A second move into the now filled database is refused before any archive is written.
      const again = path.join(dir, 'second-move.tar.gz');
      await expect(moveToDatabase(t.database, target, t.app.deps.files, again)).rejects.toBeInstanceOf(RestoreRefusedError);
      expect(fs.existsSync(again)).toBe(false);
    } finally {
      await target.drop();
    }
  });

  it('refuses to restore over a site that has data', async () => {
    await expect(restoreBackup(t.database, t.app.deps.files, archive)).rejects.toBeInstanceOf(RestoreRefusedError);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.username, 'backup_reader'));
    expect(Number(n)).toBe(1);
  });
});
