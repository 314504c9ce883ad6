import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { openDatabase } from '../../db/client';
import { migrationsFolder } from '../../db/migrate';
import { folderBefore } from '../../test/migrations';

describe('migration 0014: confirmed subscribers', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('counts the addresses collected before it as confirmed, keeps the ones who left unsubscribed, and new rows start unconfirmed', async () => {
    const before = folderBefore('0014_confirmed_subscribers');
    made.push(before);
    const database = await openDatabase({});
    try {
      await migrate(database.db as never, { migrationsFolder: before });
      await database.db.execute(sql`
        insert into newsletter_subscribers (email, name, subscribed_at, unsubscribed_at) values
          ('early@example.com', 'Early', '2026-01-05T10:00:00Z', null),
          ('left@example.com', null, '2026-02-01T10:00:00Z', '2026-03-01T10:00:00Z')`);
      await migrate(database.db as never, { migrationsFolder: migrationsFolder() });
      const result = await database.db.execute(sql`
        select email, state, source, confirmed_at, confirm_token_hash from newsletter_subscribers order by email`);
      const rows = ((result as { rows?: unknown[] }).rows ?? result) as Array<Record<string, unknown>>;
      expect(rows.map((r) => ({ ...r, confirmed_at: r.confirmed_at ? new Date(r.confirmed_at as string).toISOString() : null }))).toEqual([
        { email: 'early@example.com', state: 'confirmed', source: 'unknown', confirmed_at: '2026-01-05T10:00:00.000Z', confirm_token_hash: null },
        { email: 'left@example.com', state: 'unsubscribed', source: 'unknown', confirmed_at: null, confirm_token_hash: null },
      ]);
      await database.db.execute(sql`insert into newsletter_subscribers (email) values ('after@example.com')`);
      const after = await database.db.execute(sql`select state from newsletter_subscribers where email = 'after@example.com'`);
      expect(((after as { rows?: unknown[] }).rows ?? after) as unknown[]).toEqual([{ state: 'unconfirmed' }]);
    } finally {
      await database.close();
    }
  });
});

describe('migration 0037: subscriber totals', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('takes the totals of the whole list and of the unconfirmed from the subscribers already there, and keeps them after', async () => {
    const before = folderBefore('0037_subscriber_totals');
    made.push(before);
    const database = await openDatabase({});
    const totals = async () => {
      const result = await database.db.execute(sql`
        select name, n::int as n from row_counts where name in ('subscribers', 'active_subscribers', 'unconfirmed_subscribers') order by name`);
      return Object.fromEntries((((result as { rows?: unknown[] }).rows ?? result) as Array<{ name: string; n: number }>).map((r) => [r.name, r.n]));
    };
    try {
      await migrate(database.db as never, { migrationsFolder: before });
      await database.db.execute(sql`
        insert into newsletter_subscribers (email, state, unsubscribed_at) values
          ('waiting@example.com', 'unconfirmed', null),
          ('waiting-too@example.com', 'unconfirmed', null),
          ('reading@example.com', 'confirmed', null),
          ('gone@example.com', 'unsubscribed', '2026-03-01T10:00:00Z')`);
      await migrate(database.db as never, { migrationsFolder: migrationsFolder() });
      expect(await totals()).toEqual({ active_subscribers: 3, subscribers: 4, unconfirmed_subscribers: 2 });

      await database.db.execute(sql`update newsletter_subscribers set state = 'confirmed' where email = 'waiting@example.com'`);
      await database.db.execute(sql`insert into newsletter_subscribers (email) values ('after@example.com')`);
      expect(await totals()).toEqual({ active_subscribers: 4, subscribers: 5, unconfirmed_subscribers: 2 });
    } finally {
      await database.close();
    }
  });
});
