import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { books, purchases } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, newBuyer } from '../checkout/test-support';
import { chapteredEpub, chapteredMp3, uploadBookFile } from './test-fixtures';

const CHAPTERS = ['Chapter One', 'Chapter Two', 'Chapter Three', 'Chapter Four'];

describe('read-through for the author', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;
  const chartUrl = () => `/api/admin/books/${bookId}/read-through`;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    admin = (await adminAgent(t)).agent;
    await uploadBookFile(admin, bookId, 'ebook', 'book.epub', chapteredEpub(CHAPTERS));
    await uploadBookFile(admin, bookId, 'audiobook', 'book.mp3', chapteredMp3(CHAPTERS.map((title, i) => ({ title, start: i * 7 }))));
  });
  afterAll(() => t.close());

  const listenedTo = async (agent: TestAgent, seconds: number) => {
    const res = await agent.put(`/api/library/${bookId}/audiobook/position`, {
      locator: seconds.toFixed(1),
      progress: seconds / 27,
      updatedAt: new Date().toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('counts the share of owners who reached each chapter, hides every bucket under 5 readers, and leaves out readers who opted out', async () => {
    // Eight counted listeners; one more who opted out in Account Details, at the last chapter.
    for (const seconds of [1, 2, 8, 9, 15, 16, 17, 22]) await listenedTo((await newBuyer(t, bookId, ['audiobook'])).agent, seconds);
    const private_ = (await newBuyer(t, bookId, ['audiobook'])).agent;
    expect((await private_.get('/api/reading/read-through')).json()).toEqual({ counted: true });
    const optOut = await private_.put('/api/reading/read-through', { counted: false });
    expect(optOut.statusCode).toBe(200);
    expect(optOut.json()).toEqual({ counted: false });
    await listenedTo(private_, 22);
    // Three e-book owners: too few for any number at all.
    for (let i = 0; i < 3; i += 1) await newBuyer(t, bookId, ['ebook']);

    const res = await admin.get(chartUrl());
    expect(res.statusCode, res.body).toBe(200);
    const chart = res.json();
    expect(chart.minimumReaders).toBe(5);
    const audio = chart.formats.find((f: { format: string }) => f.format === 'audiobook');
    expect(audio.owners).toBe(8);
    expect(audio.chapters).toEqual([
      { title: 'Chapter One', reached: 1, hidden: false },
      { title: 'Chapter Two', reached: 6 / 8, hidden: false },
      // Four listeners reached chapter three (five with the one who opted out): withheld.
      { title: 'Chapter Three', reached: null, hidden: true },
      { title: 'Chapter Four', reached: null, hidden: true },
    ]);
    const ebook = chart.formats.find((f: { format: string }) => f.format === 'ebook');
    expect(ebook.owners).toBeNull();
    expect(ebook.chapters.every((c: { hidden: boolean; reached: number | null }) => c.hidden && c.reached === null)).toBe(true);
    // No reader is named anywhere in the answer.
    expect(JSON.stringify(chart)).not.toMatch(/userId|username|email/);

    // Counted again, the fifth listener of chapter three shows it.
    await private_.put('/api/reading/read-through', { counted: true });
    const again = (await admin.get(chartUrl())).json();
    const chapterThree = again.formats.find((f: { format: string }) => f.format === 'audiobook').chapters[2];
    expect(chapterThree).toEqual({ title: 'Chapter Three', reached: 5 / 9, hidden: false });
  });

  it('counts finishers, the median days they took and how many own the next book, each withheld under 5', async () => {
    // The book becomes the first of a series whose second book is in the catalogue.
    await t.database.db.update(books).set({ series: 'The Quiet Inheritance', seriesNumber: 1 }).where(eq(books.id, bookId));
    const [next] = await t.database.db
      .insert(books)
      .values({ title: 'What the Tide Keeps', slug: 'what-the-tide-keeps', coverImage: '/c.svg', tagline: 't', synopsis: 'long enough', yearPublished: 2027, publisher: 'P', featured: false, series: 'The Quiet Inheritance', seriesNumber: 2 })
      .returning();
    const finishers = [];
    for (let i = 0; i < 6; i += 1) {
      const buyer = await newBuyer(t, bookId, ['audiobook']);
      await listenedTo(buyer.agent, 27);
      finishers.push(buyer.user.id);
    }
    // They bought the audiobook three days before the place at its end was saved.
    await t.database.db
      .update(purchases)
      .set({ purchaseDate: new Date(t.clock.now().getTime() - 3 * 86_400_000) })
      .where(and(inArray(purchases.userId, finishers), eq(purchases.bookId, bookId)));
    const ownNext = (users: number[]) =>
      t.database.db.insert(purchases).values(users.map((userId, i) => ({ userId, bookId: next.id, format: 'ebook', price: 999, orderReference: `NEXT-${userId}-${i}` })));

    await ownNext(finishers.slice(0, 4));
    const fewer = (await admin.get(chartUrl())).json();
    expect(fewer.nextBook).toEqual({ id: next.id, title: 'What the Tide Keeps' });
    const audio = fewer.formats.find((f: { format: string }) => f.format === 'audiobook');
    expect(audio.finishers).toBe(6);
    expect(audio.medianDaysToFinish).toBeCloseTo(3, 0);
    // Four finishers own the next book: fewer than 5, withheld.
    expect(audio.finishersWhoBoughtNext).toBeNull();
    // Too few e-book owners: nothing about finishing either.
    expect(fewer.formats.find((f: { format: string }) => f.format === 'ebook')).toMatchObject({ finishers: null, medianDaysToFinish: null, finishersWhoBoughtNext: null });

    await ownNext(finishers.slice(4, 5));
    const five = (await admin.get(chartUrl())).json();
    expect(five.formats.find((f: { format: string }) => f.format === 'audiobook').finishersWhoBoughtNext).toBe(5);
  });

  it('shows the chart to the author only, and the choice only to its reader', async () => {
    expect((await t.app.inject({ method: 'GET', url: chartUrl() })).statusCode).toBe(401);
    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await reader.get(chartUrl())).statusCode).toBe(403);
    expect((await admin.get('/api/admin/books/999999/read-through')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/reading/read-through' })).statusCode).toBe(401);
    const bad = await reader.put('/api/reading/read-through', { counted: 'no' });
    expect(bad.statusCode).toBe(400);
    expect((await reader.get('/api/reading/read-through')).json()).toEqual({ counted: true });
  });
});
