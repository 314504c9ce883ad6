import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, bookPrices, books } from '../../db/schema';
import { createTestApp, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent, insertBook } from '../admin/test-fixtures';

const valid = {
  title: 'The Quiet Inheritance',
  tagline: 'The money was never the inheritance.',
  synopsis: 'Nell Garrow finds the people nobody is looking for.',
  coverImage: '/images/covers/quiet.svg',
  yearPublished: 2027,
  publisher: 'Harrow & Vane',
  featured: false,
};

describe('admin books API', () => {
  let t: TestApp;
  let agent: TestAgent;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    const a = await adminAgent(t);
    agent = a.agent;
    adminId = a.admin.id;
  });
  afterAll(async () => t.close());

  it.each([
    ['title', '', 'Title is required'],
    ['tagline', '   ', 'Tagline is required'],
    ['synopsis', 'too short', 'Synopsis must be at least 10 characters'],
    ['coverImage', '', 'Cover image URL is required'],
    ['yearPublished', 999, 'Year published must be a valid year'],
    ['yearPublished', 'soon', 'Year published must be a valid year'],
    ['publisher', '', 'Publisher is required'],
  ])('answers the book form message when %s is %j', async (field, value, message) => {
    const res = await agent.post('/api/admin/books', { ...valid, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, code: 'VALIDATION_ERROR', fields: { [field]: message } });
  });

  it('gives the book form message for a field left out entirely', async () => {
    const { title: _t, ...rest } = valid;
    const res = await agent.post('/api/admin/books', rest);
    expect(res.json()).toMatchObject({ message: 'Title is required', fields: { title: 'Title is required' } });
    const all = await agent.post('/api/admin/books', {});
    expect(all.json().fields).toMatchObject({
      title: 'Title is required',
      tagline: 'Tagline is required',
      synopsis: 'Synopsis must be at least 10 characters',
      coverImage: 'Cover image URL is required',
      yearPublished: 'Year published must be a valid year',
      publisher: 'Publisher is required',
    });
  });

  it('creates a book (featured defaults to false) with list prices, and audits it', async () => {
    const { featured: _f, ...withoutFeatured } = valid;
    const res = await agent.post('/api/admin/books', withoutFeatured);
    expect(res.statusCode).toBe(201);
    const book = res.json();
    // A new book gives its ebook with print unless the author turns it off.
    expect(book).toEqual({ id: expect.any(Number), ...valid, includeEbookWithPrint: true, slug: 'the-quiet-inheritance', series: null, seriesNumber: null });
    const prices = await t.database.db.select().from(bookPrices).where(eq(bookPrices.bookId, book.id));
    expect(prices).toHaveLength(4);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, String(book.id)));
    expect(entry).toMatchObject({ actorId: adminId, action: 'book.create', targetType: 'book' });
    expect(entry.createdAt).toBeInstanceOf(Date);
    // The public API sees it.
    expect((await t.app.inject({ url: `/api/books/${book.id}` })).json().title).toBe(valid.title);
  });

  it('updates a book and answers 404 for an unknown one', async () => {
    const book = await insertBook(t);
    const res = await agent.put(`/api/admin/books/${book.id}`, { ...valid, title: 'Renamed', yearPublished: '2028' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: book.id, title: 'Renamed', yearPublished: 2028 });
    const bad = await agent.put(`/api/admin/books/${book.id}`, { ...valid, synopsis: 'short' });
    expect(bad.json().message).toBe('Synopsis must be at least 10 characters');
    const missing = await agent.put('/api/admin/books/999999', valid);
    expect(missing.statusCode).toBe(404);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, String(book.id)));
    expect(entries.map((e) => e.action)).toEqual(['book.update']);
    expect(entries[0].details).toMatchObject({ changed: { title: 'Renamed', yearPublished: 2028 } });
  });

  it('turns the ebook-with-print setting off and keeps it when an edit leaves it out', async () => {
    const book = (await agent.post('/api/admin/books', { ...valid, title: 'No Ebook' })).json();
    const off = await agent.put(`/api/admin/books/${book.id}`, { ...valid, title: 'No Ebook', includeEbookWithPrint: false });
    expect(off.json().includeEbookWithPrint).toBe(false);
    const kept = await agent.put(`/api/admin/books/${book.id}`, { ...valid, title: 'Still No Ebook' });
    expect(kept.json().includeEbookWithPrint).toBe(false);
  });

  it('keeps the book on sale when an edit leaves out featured; featured false takes it off', async () => {
    const onSale = (await agent.post('/api/admin/books', { ...valid, title: 'On Sale', featured: true })).json();
    const { featured: _f, ...withoutFeatured } = valid;
    const edited = await agent.put(`/api/admin/books/${onSale.id}`, { ...withoutFeatured, title: 'On Sale, Renamed' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'On Sale, Renamed', featured: true });
    expect((await t.app.inject({ url: '/api/books/featured' })).json()).toEqual({ id: onSale.id, title: 'On Sale, Renamed' });
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, String(onSale.id)));
    expect(entries.at(-1)!.details).toEqual({ changed: { title: 'On Sale, Renamed' } });

    const off = await agent.put(`/api/admin/books/${onSale.id}`, { ...withoutFeatured, title: 'On Sale, Renamed', featured: false });
    expect(off.json().featured).toBe(false);
    expect((await t.app.inject({ url: '/api/books/featured' })).statusCode).toBe(404);
  });

  it('keeps one featured book: featuring one unfeatures the other', async () => {
    const first = (await agent.post('/api/admin/books', { ...valid, title: 'First', featured: true })).json();
    const second = (await agent.post('/api/admin/books', { ...valid, title: 'Second', featured: true })).json();
    let featured = await t.database.db.select({ id: books.id }).from(books).where(eq(books.featured, true));
    expect(featured).toEqual([{ id: second.id }]);

    const again = await agent.put(`/api/admin/books/${first.id}`, { ...valid, title: 'First', featured: true });
    expect(again.json().featured).toBe(true);
    featured = await t.database.db.select({ id: books.id }).from(books).where(eq(books.featured, true));
    expect(featured).toEqual([{ id: first.id }]);
    expect((await t.app.inject({ url: '/api/books/featured' })).json()).toEqual({ id: first.id, title: 'First' });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('featuring under concurrency (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => t.close());

  it('ends with exactly one featured book when several are featured at once', async () => {
    const { agent } = await adminAgent(t);
    const created = [];
    for (let i = 0; i < 6; i++) created.push(await insertBook(t));
    const results = await Promise.all(
      created.map((b) => agent.put(`/api/admin/books/${b.id}`, { ...valid, title: b.title, featured: true })),
    );
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const featured = await t.database.db.select({ id: books.id }).from(books).where(eq(books.featured, true));
    expect(featured).toHaveLength(1);
  });
});
