import { expect, type Browser, type Page } from '@playwright/test';
import { nextPage, postJson, readerWith, test } from './support';

/**
 * The reading room: read the ebook and pick up on another device at the same place, listen to the
 * audiobook and resume within seconds, read the free sample signed out, all without spending the
 * one download.
 */

const VIEWPORT = { width: 1366, height: 900 };

/** The same reader on another device: a fresh browser context, signed in. */
async function secondDevice(browser: Browser, reader: { username: string; password: string }) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await postJson(page.request, '/api/users/login', { username: reader.username, password: reader.password });
  return { context, page };
}

const progressOf = (page: Page) => page.getByTestId('reading-progress');

test('read the ebook, leave, and another device opens at the same place; the download is untouched', async ({ page, browser }) => {
  await page.setViewportSize(VIEWPORT);
  const { reader, bookId } = await readerWith(page.request, ['ebook']);
  await page.goto('/profile#library');
  const library = page.locator('section[aria-labelledby="library-title"]');
  await library.getByRole('link', { name: 'Read E-Book' }).click();
  await expect(page).toHaveURL(`/read/${bookId}/ebook`);

  await expect(progressOf(page)).toHaveText(/^\d+%$/, { timeout: 20_000 });
  const reader1 = page.locator('[data-locator]');
  // Two pages on: with the whole screen for the book (no site header or floating bar), the sample's
  // chapter ends on the third page at this size.
  for (let i = 0; i < 2; i += 1) {
    const before = await reader1.getAttribute('data-locator');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(reader1).not.toHaveAttribute('data-locator', before ?? '');
  }
  const percent = await progressOf(page).textContent();
  const locator = await reader1.getAttribute('data-locator');
  expect(locator).toMatch(/^epubcfi\(/);
  expect(percent).not.toBe('0%');

  // Leaving saves the place; the library shows how far the reader got and still offers the download.
  await page.getByRole('link', { name: 'Your library' }).click();
  await expect(page).toHaveURL('/profile#library');
  await expect(library.getByText(`Read ${percent}`)).toBeVisible();
  await expect(library.getByRole('button', { name: 'Download E-Book' })).toBeEnabled();
  await expect(library.getByRole('button', { name: 'Download E-Book' })).toHaveText('Download');
  const items = (await (await page.request.get('/api/library/books')).json()) as Array<{ format: string; downloadUsed: boolean; downloadCount: number }>;
  // The e-book, and the PDF edition that comes with it (decision 0066): neither download spent.
  expect(items).toEqual([
    expect.objectContaining({ format: 'ebook', downloadUsed: false, downloadCount: 0 }),
    expect.objectContaining({ format: 'pdf', downloadUsed: false, downloadCount: 0 }),
  ]);

  const other = await secondDevice(browser, reader);
  await other.page.goto(`/read/${bookId}/ebook`);
  await expect(progressOf(other.page)).toHaveText(percent!, { timeout: 20_000 });
  await expect(other.page.locator('[data-locator]')).toHaveAttribute('data-locator', locator!);
  await other.context.close();
});

test('listen, jump to chapter two at 1.5x, leave, and another device resumes within 5 seconds', async ({ page, browser }) => {
  await page.setViewportSize(VIEWPORT);
  const { reader, bookId } = await readerWith(page.request, ['audiobook']);
  await page.goto('/profile#library');
  const library = page.locator('section[aria-labelledby="library-title"]');
  await library.getByRole('link', { name: 'Listen to Audiobook' }).click();
  await expect(page).toHaveURL(`/listen/${bookId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'What We Owe the Dead' })).toBeVisible();

  const chapters = page.getByRole('region', { name: 'Chapters' });
  await expect(chapters.getByRole('button')).toHaveText([/Opening credits\s*0:00/, /Chapter One: The Return\s*0:06/]);
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await chapters.getByRole('button', { name: /Chapter One: The Return/ }).click();
  await expect(chapters.getByRole('button', { name: /Chapter One: The Return/ })).toHaveAttribute('aria-current', 'true');
  await page.getByLabel('Speed').selectOption('1.5');
  const audio = page.locator('audio');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1.5);
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(7);
  const heard = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);

  await page.getByRole('link', { name: 'Your library' }).click();
  await expect(library.getByText('Listened under a minute')).toBeVisible();

  const other = await secondDevice(browser, reader);
  await other.page.goto(`/listen/${bookId}`);
  const audio2 = other.page.locator('audio');
  await expect.poll(() => audio2.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
  const resumed = await audio2.evaluate((a: HTMLAudioElement) => a.currentTime);
  expect(Math.abs(resumed - heard)).toBeLessThanOrEqual(5);
  await expect(other.page.getByRole('region', { name: 'Chapters' }).getByRole('button', { name: /Chapter One/ })).toHaveAttribute('aria-current', 'true');
  await other.context.close();
});

test('anyone can read the first chapter from the home page; it ends with "Buy to keep reading"', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('link', { name: 'Read the first chapter' }).click();
  await expect(page).toHaveURL('/read/sample');
  await expect(progressOf(page)).toHaveText(/^\d+%$/, { timeout: 20_000 });
  // Arrow keys turn pages too.
  const place = page.locator('[data-locator]');
  await expect(page.getByRole('button', { name: 'Next page' })).toBeEnabled();
  const first = await place.getAttribute('data-locator');
  const firstPercent = await progressOf(page).textContent();
  await page.keyboard.press('ArrowRight');
  await expect(place).not.toHaveAttribute('data-locator', first!);
  await expect(progressOf(page)).not.toHaveText(firstPercent!);
  await page.keyboard.press('ArrowLeft');
  await expect(progressOf(page)).toHaveText(firstPercent!);
  const buy = page.getByRole('link', { name: 'Buy to keep reading' });
  for (let i = 0; i < 80 && !(await buy.isVisible()); i += 1) {
    await nextPage(page, buy);
  }
  await expect(buy).toBeVisible();
  await expect(progressOf(page)).toHaveText('100%');
  await buy.click();
  await expect(page).toHaveURL('/#purchase');
});
