import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, newsletterSubscribers } from '../../db/schema';
import type { TestAgent, TestApp } from '../../test/helpers';
import { unseededAppWithAdmin } from './test-fixtures';
import { EXPORT_BATCH } from './readers-service';

/** Decision 0071: the subscriber export is written batch by batch, and the file is the same as before. */
describe('subscriber CSV export in batches', () => {
  let t: TestApp;
  let agent: TestAgent;
  const total = EXPORT_BATCH * 2 + 500;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
    // Fifty share each instant, so batches end inside a run of equal times; every 7th name needs escaping.
    await t.database.db.execute(sql`
      insert into newsletter_subscribers (email, name, subscribed_at, state, source)
      select 'fan' || g || '@example.com',
             case when g % 7 = 0 then '=SUM(A1), "the" fan' || chr(10) || g else 'Fan ' || g end,
             timestamptz '2026-01-01 00:00:00.000001+00' + (g / 50) * interval '1 second', 'confirmed', 'home'
      from generate_series(1, ${total}) g`);
    await t.database.db
      .insert(newsletterSubscribers)
      .values({ email: 'gone@example.com', state: 'unsubscribed', unsubscribedAt: new Date('2026-02-01T00:00:00Z') });
  });
  afterAll(async () => t.close());

  it('writes every address that has not left once, oldest first, escaped, and audits the row count', async () => {
    const res = await agent.get('/api/admin/subscribers.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith('\uFEFF"email","name","subscribed_at","state","source"\r\n')).toBe(true);
    const records = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n').slice(1);
    expect(records).toHaveLength(total);
    const emails = records.map((line) => /^"([^"]+)"/.exec(line)![1]);
    expect(new Set(emails).size).toBe(total);
    expect(emails).not.toContain('gone@example.com');
    // Oldest first, ties by id: the order the rows went in.
    expect(emails).toEqual(Array.from({ length: total }, (_, i) => `fan${i + 1}@example.com`));
    expect(records[6]).toBe(`"fan7@example.com","'=SUM(A1), ""the"" fan\n7","2026-01-01T00:00:00.000Z","confirmed","home"`);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'subscribers.export'));
    expect(entries.map((e) => e.details)).toEqual([{ rows: total }]);
  });
});
