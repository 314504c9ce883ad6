import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, newBuyer } from '../checkout/test-support';
import { pairByTitleAndOrder } from './sync-map';
import { chapteredEpub, chapteredMp3, uploadBookFile } from './test-fixtures';

const titles = (...list: string[]) => list.map((title) => ({ title }));

describe('pairing by title and order', () => {
  it('pairs matching titles, whatever their case and punctuation, and the chapters between them in order', () => {
    const ebook = titles('A Book', 'Chapter One: The Return', 'Chapter Two', 'The Harbour', 'Epilogue');
    const audio = titles('Opening credits', 'chapter one - the return', 'Chapter 2', 'The harbour!', 'Epilogue', 'End credits');
    expect(pairByTitleAndOrder(ebook, audio)).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
  });

  it('skips chapters one side lacks when a later title matches, rather than shifting every pair', () => {
    // The audiobook drops "Interlude": the title anchors keep "Chapter Three" with "Chapter Three".
    const ebook = titles('Chapter One', 'Chapter Two', 'Interlude', 'Chapter Three');
    const audio = titles('Chapter One', 'Chapter Two', 'Chapter Three');
    expect(pairByTitleAndOrder(ebook, audio)).toEqual([
      [0, 0],
      [1, 1],
      [3, 2],
    ]);
  });

  it('pairs by order alone when no title matches, as far as the shorter side goes', () => {
    expect(pairByTitleAndOrder(titles('I', 'II', 'III'), titles('Part one', 'Part two'))).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(pairByTitleAndOrder([], titles('Part one'))).toEqual([]);
  });
});

describe('GET /api/library/{bookId}/sync-map and its correction by the author', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;
  const url = () => `/api/library/${bookId}/sync-map`;
  const adminUrl = () => `/api/admin/books/${bookId}/sync-map`;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    admin = (await adminAgent(t)).agent;
    await uploadBookFile(admin, bookId, 'ebook', 'book.epub', chapteredEpub(['Chapter One', 'Chapter Two', 'Chapter Three', 'Chapter Four']));
    await uploadBookFile(
      admin,
      bookId,
      'audiobook',
      'book.mp3',
      chapteredMp3([
        { title: 'Opening credits', start: 0 },
        { title: 'Chapter One', start: 3 },
        { title: 'Chapter Two', start: 8 },
        { title: 'Chapter Three', start: 14 },
        { title: 'Chapter Four', start: 21 },
      ]),
    );
  });
  afterAll(() => t.close());

  it('gives the owner of both formats the pairing by title and order, private and uncached', async () => {
    const both = await newBuyer(t, bookId, ['ebook', 'audiobook']);
    const res = await both.agent.get(url());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const map = res.json();
    expect(map.bookId).toBe(bookId);
    expect(map.corrected).toBe(false);
    // The spine: title page (0), then the four chapters (1-4). The title page goes with the opening credits.
    expect(map.pairs.map((p: { ebook: { index: number; title: string }; audiobook: { index: number; title: string; start: number } }) => [p.ebook.index, p.ebook.title, p.audiobook.index, p.audiobook.title, p.audiobook.start])).toEqual([
      [0, 'A Book in Chapters', 0, 'Opening credits', 0],
      [1, 'Chapter One', 1, 'Chapter One', 3],
      [2, 'Chapter Two', 2, 'Chapter Two', 8],
      [3, 'Chapter Three', 3, 'Chapter Three', 14],
      [4, 'Chapter Four', 4, 'Chapter Four', 21],
    ]);
    // Readers find their place by the chapter's file, the same in their personal copy as in the master.
    expect(map.pairs[3].ebook.path).toBe('OEBPS/chapter-3.xhtml');
  });

  it('refuses anonymous callers (401) and readers who own one format or none (403)', async () => {
    expect((await t.app.inject({ method: 'GET', url: url() })).statusCode).toBe(401);
    const stranger = await signedInAgent(t.app, (await createUser(t.database)).id);
    const none = await stranger.get(url());
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toBe('You need both the e-book and the audiobook of this book to switch between them.');
    for (const format of ['ebook', 'audiobook']) {
      const one = await newBuyer(t, bookId, [format]);
      const res = await one.agent.get(url());
      expect(res.statusCode).toBe(403);
      expect(res.json()).not.toHaveProperty('pairs');
    }
    expect((await stranger.get('/api/library/abc/sync-map')).statusCode).toBe(400);
  });

  it('lets the author correct the pairing, which the owner then gets, and go back to the automatic one', async () => {
    const both = await newBuyer(t, bookId, ['ebook', 'audiobook']);
    const view = (await admin.get(adminUrl())).json();
    expect(view.ebookChapters.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3, 4]);
    expect(view.audiobookChapters.map((c: { title: string }) => c.title)).toEqual(['Opening credits', 'Chapter One', 'Chapter Two', 'Chapter Three', 'Chapter Four']);

    // The narrator reads the title page into "Chapter One": the author leaves the title page unpaired.
    const corrected = await admin.put(adminUrl(), {
      pairs: [
        { ebook: 4, audiobook: 4 },
        { ebook: 1, audiobook: 0 },
        { ebook: 2, audiobook: 2 },
        { ebook: 3, audiobook: 3 },
      ],
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json().corrected).toBe(true);
    const owner = (await both.agent.get(url())).json();
    expect(owner.corrected).toBe(true);
    expect(owner.pairs.map((p: { ebook: { index: number }; audiobook: { index: number } }) => [p.ebook.index, p.audiobook.index])).toEqual([
      [1, 0],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);

    // Bad corrections change nothing: a chapter twice, a chapter the files do not have, not a number.
    const twice = await admin.put(adminUrl(), { pairs: [{ ebook: 1, audiobook: 1 }, { ebook: 1, audiobook: 2 }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('Each e-book chapter can be paired once');
    const unknown = await admin.put(adminUrl(), { pairs: [{ ebook: 9, audiobook: 1 }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('A pair names a chapter the files do not have. Reload the page and try again.');
    expect((await admin.put(adminUrl(), { pairs: [{ ebook: 'one', audiobook: 1 }] })).statusCode).toBe(400);
    expect((await both.agent.get(url())).json().pairs).toHaveLength(4);

    // Only the author corrects: a reader is refused, and so is a book that does not exist.
    expect((await both.agent.put(adminUrl(), { pairs: [] })).statusCode).toBe(403);
    expect((await admin.get('/api/admin/books/999999/sync-map')).statusCode).toBe(404);

    const reset = await admin.delete(adminUrl());
    expect(reset.statusCode).toBe(200);
    expect(reset.json().corrected).toBe(false);
    expect((await both.agent.get(url())).json().pairs).toHaveLength(5);
  });
});
