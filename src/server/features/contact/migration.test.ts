import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { openDatabase } from '../../db/client';
import { migrationsFolder } from '../../db/migrate';
import { folderBefore } from '../../test/migrations';

describe('migration 0038: unread messages', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('takes the unread count from the messages already there, and keeps it through writes and an emptied inbox', async () => {
    const before = folderBefore('0038_unread_messages');
    made.push(before);
    const database = await openDatabase({});
    const unread = async () => {
      const result = await database.db.execute(sql`select n::int as n from row_counts where name = 'unread_messages'`);
      return (((result as { rows?: unknown[] }).rows ?? result) as Array<{ n: number }>).map((r) => r.n);
    };
    try {
      await migrate(database.db as never, { migrationsFolder: before });
      await database.db.execute(sql`
        insert into contact_messages (name, email, subject, message, read_at) values
          ('Press', 'press@example.com', 'Media Inquiry', 'Interview?', null),
          ('Club', 'club@example.com', 'Book Club Appearance', 'Visit us', null),
          ('Shop', 'shop@example.com', 'Bulk Order', 'Forty copies', '2026-03-01T10:00:00Z')`);
      await migrate(database.db as never, { migrationsFolder: migrationsFolder() });
      expect(await unread()).toEqual([2]);

      await database.db.execute(sql`update contact_messages set read_at = now() where name = 'Press'`);
      await database.db.execute(sql`update contact_messages set read_at = null where name = 'Shop'`);
      await database.db.execute(sql`insert into contact_messages (name, email, subject, message) values ('After', 'after@example.com', 'Other', 'Hello')`);
      expect(await unread()).toEqual([3]);
      await database.db.execute(sql`truncate contact_messages`);
      expect(await unread()).toEqual([0]);
    } finally {
      await database.close();
    }
  });
});
