import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, books, contactMessages, newsletterSubscribers, purchases, siteSettings } from '../../db/schema';
import { createUser, type TestAgent, type TestApp } from '../../test/helpers';
import { csvCell, toCsv } from './csv';
import { insertBook, unseededAppWithAdmin } from './test-fixtures';

describe('CSV cells', () => {
  it('neutralises spreadsheet formulas and quotes every field', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell('plain, with "quotes"\nand a newline')).toBe('"plain, with ""quotes""\nand a newline"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(toCsv(['a'], [['x']])).toBe('\uFEFF"a"\r\n"x"\r\n');
  });
});

describe('admin readers, messages and settings API', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
  });
  afterAll(async () => t.close());

  it('exports subscribers with their state and source as CSV safe against formula injection', async () => {
    await t.database.db.insert(newsletterSubscribers).values([
      { email: 'ok@example.com', name: 'Ann', subscribedAt: new Date('2026-01-01T00:00:00Z'), state: 'confirmed', source: 'home' },
      { email: 'evil@example.com', name: '=cmd|" /C calc"!A0', subscribedAt: new Date('2026-01-02T00:00:00Z') },
      { email: 'gone@example.com', name: 'Gone', state: 'unsubscribed', unsubscribedAt: new Date('2026-02-01T00:00:00Z') },
    ]);
    const res = await agent.get('/api/admin/subscribers.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="thriller-circle-subscribers-2026-11-21\.csv"$/);
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines).toEqual([
      '"email","name","subscribed_at","state","source"',
      '"ok@example.com","Ann","2026-01-01T00:00:00.000Z","confirmed","home"',
      `"evil@example.com","'=cmd|"" /C calc""!A0","2026-01-02T00:00:00.000Z","unconfirmed","unknown"`,
    ]);
    const list = (await agent.get('/api/admin/subscribers')).json().items;
    expect(list).toHaveLength(3);
    expect(list.map((s: { email: string; state: string; source: string }) => [s.email, s.state, s.source])).toEqual([
      ['gone@example.com', 'unsubscribed', 'unknown'],
      ['evil@example.com', 'unconfirmed', 'unknown'],
      ['ok@example.com', 'confirmed', 'home'],
    ]);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'subscribers.export'));
    expect(entry.details).toEqual({ rows: 2 });
  });

  it('shows the contact inbox and marks messages read and unread', async () => {
    const [m] = await t.database.db
      .insert(contactMessages)
      .values([
        { name: 'Press', email: 'press@example.com', subject: 'Media Inquiry', message: 'Interview?' },
        { name: 'Club', email: 'club@example.com', subject: 'Book Club Appearance', message: 'Visit us' },
      ])
      .returning();
    let inbox = (await agent.get('/api/admin/messages')).json();
    expect(inbox.unread).toBe(2);
    expect(inbox.items).toHaveLength(2);
    const read = await agent.post(`/api/admin/messages/${m.id}/read`, { read: true });
    expect(read.json().readAt).toBe(t.clock.now().toISOString());
    inbox = (await agent.get('/api/admin/messages?filter=unread')).json();
    expect(inbox).toMatchObject({ unread: 1, items: [expect.objectContaining({ name: 'Club' })] });
    await agent.post(`/api/admin/messages/${m.id}/read`, { read: false });
    expect((await agent.get('/api/admin/messages')).json().unread).toBe(2);
    expect((await agent.post('/api/admin/messages/999999/read', { read: true })).statusCode).toBe(404);
  });

  it('lists users with their roles', async () => {
    await createUser(t.database, { username: 'reader_one' });
    const users = (await agent.get('/api/admin/users')).json().items;
    expect(users).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ username: 'reader_one', role: 'user', purchases: 0 }),
        expect.objectContaining({ role: 'admin' }),
      ]),
    );
    expect(users[0]).not.toHaveProperty('passwordHash');
  });

  it('edits the site content and the teaser video, keeping the rest of the content', async () => {
    await t.database.db.insert(siteSettings).values({
      key: 'site.content',
      value: { siteTitle: 'Site', authorName: 'Callum Reyes', authorBio: ['Bio'], heroBlurb: 'kept', publisher: { name: 'H&V', url: '#' }, agent: { name: 'M', agency: 'N' }, social: { x: '', instagram: '', facebook: '', goodreads: '' } },
    });
    const upcoming = await insertBook(t, { teaserVideoId: 'Xq3vR8nLw2E' });
    const current = (await agent.get('/api/admin/settings')).json();
    expect(current).toMatchObject({ authorName: 'Callum Reyes', teaserVideoId: 'Xq3vR8nLw2E' });
    const next = {
      ...current,
      authorName: 'C. Reyes',
      authorBio: ['First paragraph.', 'Second paragraph.'],
      social: { ...current.social, x: 'https://x.com/creyes' },
      teaserVideoId: 'abcDEF12345',
    };
    const res = await agent.put('/api/admin/settings', next);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(next);
    const [stored] = await t.database.db.select().from(siteSettings).where(eq(siteSettings.key, 'site.content'));
    expect(stored.value).toMatchObject({ authorName: 'C. Reyes', heroBlurb: 'kept', siteTitle: 'Site' });
    const [book] = await t.database.db.select().from(books).where(eq(books.id, upcoming.id));
    expect(book.teaserVideoId).toBe('abcDEF12345');
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update'));
    expect(entry.details).toEqual({ changed: ['authorName', 'authorBio', 'social', 'teaserVideoId'] });

    const bad = await agent.put('/api/admin/settings', { ...next, social: { ...next.social, x: 'javascript:alert(1)' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('X link must be a web address (https://...)');
  });

  it('lists the audit log newest first with the actor', async () => {
    const entries = (await agent.get('/api/admin/audit')).json();
    expect(entries[0]).toMatchObject({ action: 'settings.update', actor: expect.any(String) });
  });

  it('counts each user’s own purchases', async () => {
    const buyer = await createUser(t.database, { username: 'buyer_two' });
    const idle = await createUser(t.database, { username: 'idle_three' });
    const book = await insertBook(t);
    await t.database.db.insert(purchases).values(
      ['hardcover', 'ebook'].map((format, i) => ({
        userId: buyer.id,
        bookId: book.id,
        format,
        price: 999,
        orderReference: `count-${i}`,
      })),
    );
    const list = (await agent.get('/api/admin/users')).json().items as Array<{ id: number; purchases: number }>;
    expect(list.find((u) => u.id === buyer.id)?.purchases).toBe(2);
    expect(list.find((u) => u.id === idle.id)?.purchases).toBe(0);
  });
});
