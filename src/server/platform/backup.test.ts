import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { eq, sql } from 'drizzle-orm';
import { digitalAssets, purchases, users } from '../db/schema';
import { type TestApp, TestAgent, createTestApp, createTestDatabase, createUser, signedInAgent } from '../test/helpers';
import { buy, featuredBookId } from '../features/checkout/test-support';
import { RestoreRefusedError, restoreBackup, writeBackup } from './backup';
import { DiskFileStore } from './files';

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

    const report = await writeBackup(t.database, t.app.deps.files, archive);
    expect(fs.existsSync(archive)).toBe(true);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    expect(report.manifest.tables.find((x) => x.name === 'users')!.rows).toBeGreaterThanOrEqual(1);
    expect(report.files).toBeGreaterThanOrEqual(2);

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

  it('refuses to restore over a site that has data', async () => {
    await expect(restoreBackup(t.database, t.app.deps.files, archive)).rejects.toBeInstanceOf(RestoreRefusedError);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.username, 'backup_reader'));
    expect(Number(n)).toBe(1);
  });
});
