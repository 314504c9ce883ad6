import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig } from '../../test/helpers';
import { DiskFileStore } from '../storage/files';
import { verifyPassword } from '../security/passwords';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { seed } from './seed';
import path from 'node:path';

const TABLES = ['books', 'book_prices', 'reviews', 'blog_posts', 'digital_assets', 'site_settings', 'users'];

async function counts(database: Database) {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const res = (await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
      rows: Array<{ n: number }>;
    };
    out[table] = Number(res.rows[0].n);
  }
  return out;
}

describe('seed', () => {
  let database: Database & { drop(): Promise<void> };
  const files = new DiskFileStore(path.join(testConfig().dataDir, 'files'));
  const admin = { username: 'author', email: 'author@example.com', password: 'First-Admin-Pass-1' };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  it('puts the product content in place', async () => {
    await seed(database.db, files, { admin });
    const c = await counts(database);
    expect(c).toMatchObject({ books: 2, book_prices: 4, reviews: 3, blog_posts: 6, digital_assets: 3, users: 1 });
    const ratings = (await database.db.execute(sql`select rating from reviews order by id`)) as unknown as {
      rows: Array<{ rating: number }>;
    };
    expect(ratings.rows.map((r) => Number(r.rating))).toEqual([5, 4.5, 5]);
    const [asset] = ((await database.db.execute(sql`select file_url from digital_assets where format = 'ebook'`)) as unknown as {
      rows: Array<{ file_url: string }>;
    }).rows;
    const stored = await files.stat(asset.file_url);
    expect(stored?.size).toBeGreaterThan(1000);
  });

  it('changes nothing when run again, and never overwrites the admin password', async () => {
    const before = await counts(database);
    await seed(database.db, files, { admin: { ...admin, password: 'Another-Password-2' } });
    await seed(database.db, files, { admin });
    expect(await counts(database)).toEqual(before);
    const [row] = await database.db.select().from(users).where(sql`username = 'author'`);
    expect(row.role).toBe('admin');
    expect(await verifyPassword(row.passwordHash, admin.password)).toBe(true);
    expect(await verifyPassword(row.passwordHash, 'Another-Password-2')).toBe(false);
  });

  it('promotes an existing account named by ADMIN_* without touching its password', async () => {
    await database.db.insert(users).values({ username: 'editor', email: 'editor@example.com', passwordHash: 'kept' });
    await seed(database.db, files, { admin: { username: 'editor', email: 'editor@example.com', password: 'Whatever-Pass-3' } });
    const [row] = await database.db.select().from(users).where(sql`username = 'editor'`);
    expect(row).toMatchObject({ role: 'admin', passwordHash: 'kept' });
  });
});
