import fs from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest } from '@playwright/test';
import { chapteredEpub, chapteredMp3 } from '../../src/server/features/reading/test-fixtures';
import { ADMIN, bookFrame, csrfToken, nextPage, postJson, readerWith, test } from './support';

/**
 * Read <-> listen (issue 32 point 1): a reader who owns both the e-book and the audiobook reads to
 * chapter three, goes on listening from there, and after a while goes back to reading at the chapter
 * they are hearing. The library then shows the line of the format used last.
 */

const CHAPTERS = ['Chapter One', 'Chapter Two', 'Chapter Three', 'Chapter Four'];

/** The featured book's seeded masters: put back afterwards, as the journeys that run later read them. */
const SEEDED = {
  ebook: { name: 'what-we-owe-the-dead.epub', mimeType: 'application/epub+zip' },
  audiobook: { name: 'what-we-owe-the-dead-audio-sample.mp3', mimeType: 'audio/mpeg' },
};

test.afterAll(async ({ baseURL }) => {
  const author = await playwrightRequest.newContext({ baseURL });
  await postJson(author, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  const bookId = ((await (await author.get('/api/books/featured')).json()) as { id: number }).id;
  for (const [format, seeded] of Object.entries(SEEDED)) {
    const buffer = fs.readFileSync(path.join(process.cwd(), 'src/server/db/seed/files', seeded.name));
    const res = await author.put(`/api/admin/books/${bookId}/files/${format}`, {
      multipart: { file: { ...seeded, buffer } },
      headers: { 'X-CSRF-Token': await csrfToken(author) },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await author.dispose();
});

test('read to chapter three, listen from there, then read again from the chapter heard', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  // The author uploads a book in four chapters, as an e-book and as an audiobook with chapter marks.
  const author = await playwrightRequest.newContext({ baseURL });
  await postJson(author, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  const bookId = ((await (await author.get('/api/books/featured')).json()) as { id: number }).id;
  const files = {
    ebook: { name: 'four-chapters.epub', mimeType: 'application/epub+zip', buffer: chapteredEpub(CHAPTERS) },
    audiobook: {
      name: 'four-chapters.mp3',
      mimeType: 'audio/mpeg',
      buffer: chapteredMp3(CHAPTERS.map((title, i) => ({ title, start: i * 7 }))),
    },
  };
  for (const [format, file] of Object.entries(files)) {
    const res = await author.put(`/api/admin/books/${bookId}/files/${format}`, { multipart: { file }, headers: { 'X-CSRF-Token': await csrfToken(author) } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await author.dispose();

  await readerWith(page.request, ['ebook', 'audiobook']);
  await page.goto(`/read/${bookId}/ebook`);
  await expect(page.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });
  const nav = page.getByTestId('page-nav');
  const chapterThree = nav.getByText('Chapter Three', { exact: true });
  for (let i = 0; i < 20 && !(await chapterThree.isVisible()); i += 1) {
    await nextPage(page, chapterThree);
  }
  await expect(chapterThree).toBeVisible();

  await page.getByRole('button', { name: 'Listen from here' }).click();
  await expect(page).toHaveURL(`/listen/${bookId}?at=14`);
  const chapters = page.getByRole('region', { name: 'Chapters' });
  await expect(chapters.getByRole('button', { name: /Chapter Three/ })).toHaveAttribute('aria-current', 'true');
  const audio = page.locator('audio');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 }).toBeGreaterThanOrEqual(14);
  expect(await audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(15);

  // Plays a while, still in chapter three.
  await page.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 }).toBeGreaterThan(16);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Now playing').locator('..').getByText('Chapter Three')).toBeVisible();

  // The e-book's place, saved a moment after the reader opens at the chapter heard.
  const ebookSaved = page.waitForResponse((r) => r.url().endsWith(`/api/library/${bookId}/ebook/position`) && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Read from here' }).click();
  await expect(page).toHaveURL(`/read/${bookId}/ebook?chapter=OEBPS%2Fchapter-3.xhtml`);
  await expect(page.getByTestId('page-nav').getByText('Chapter Three', { exact: true })).toBeVisible({ timeout: 20_000 });
  const frame = await bookFrame(page);
  await expect(frame!.getByRole('heading', { name: 'Chapter Three' })).toBeVisible();

  // The library shows where the reader is: the e-book, used last; the audiobook row has no line of its own.
  expect((await ebookSaved).ok()).toBe(true);
  await page.getByRole('link', { name: 'Your library' }).click();
  const library = page.locator('section[aria-labelledby="library-title"]');
  await expect(library.getByText(/^Read \d+%$/)).toBeVisible();
  await expect(library.getByText(/^Listened/)).toHaveCount(0);
});
