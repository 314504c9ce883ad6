import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFilesDir } from '../../platform/operations/seed';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId } from '../checkout/test-support';

describe('the author in the reading room', () => {
  let t: TestApp;
  let bookId: number;
  const epub = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub'));

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  it('opens their own book in the reader and the player without buying it, and keeps their place', async () => {
    const { agent: author } = await adminAgent(t);
    const book = await author.get(`/api/library/${bookId}/ebook/content`);
    expect(book.statusCode, book.body).toBe(200);
    expect(book.headers['content-type']).toBe('application/epub+zip');
    // The master itself: no purchase, so no personal copy is made for the author.
    expect(book.rawPayload.equals(epub)).toBe(true);
    expect((await author.get(`/api/library/${bookId}/pdf/content`)).statusCode).toBe(200);
    const audio = await author.get(`/api/library/${bookId}/audiobook/content`, { headers: { range: 'bytes=0-99' } });
    expect(audio.statusCode).toBe(206);
    const chapters = await author.get(`/api/library/${bookId}/audiobook/chapters`);
    expect(chapters.statusCode, chapters.body).toBe(200);

    expect((await author.get(`/api/library/${bookId}/ebook/position`)).json()).toEqual({ position: null });
    const at = { locator: 'epubcfi(/6/4!/4/2)', progress: 0.1, updatedAt: t.clock.now().toISOString() };
    expect((await author.put(`/api/library/${bookId}/ebook/position`, at)).statusCode).toBe(200);
    expect((await author.get(`/api/library/${bookId}/ebook/position`)).json().position).toMatchObject({ locator: at.locator });
    // Reading is not buying: the author's library stays empty.
    expect((await author.get('/api/library/books')).json()).toEqual([]);
  });

  it('a reader who has not bought the format is still refused; a book that does not exist stays closed to the author too', async () => {
    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await reader.get(`/api/library/${bookId}/ebook/content`)).statusCode).toBe(403);
    expect((await reader.get(`/api/library/${bookId}/audiobook/chapters`)).statusCode).toBe(403);
    const { agent: author } = await adminAgent(t);
    expect((await author.get('/api/library/999999/ebook/content')).statusCode).toBe(403);
  });
});
