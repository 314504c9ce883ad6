import path from 'node:path';
import { expect } from '@playwright/test';
import { ADMIN, expectToast, readerWith, waitForMail, test } from './support';

/**
 * New edition notice (issue 28 point 5, decision 0091): a reader has spent their one e-book download; the
 * author replaces the e-book with "Tell owners about this edition" and a note; the reader is mailed the note,
 * their library marks the e-book "Updated" with a download open again, and the download takes the mark away.
 */
test('the author tells owners about a new edition; the owner sees it Updated and downloads it once more', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const library = page.locator('section[aria-labelledby="library-title"]');
  const { reader, bookId } = await readerWith(page.request, ['ebook']);
  await page.goto('/profile#library');
  await library.getByRole('button', { name: 'Download E-Book' }).click();
  await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Download now' }).click()]);
  await expect(library.getByRole('button', { name: 'E-Book: Download Used' })).toBeDisabled();
  await expect(library.getByText('Updated', { exact: true })).toHaveCount(0);

  const authorContext = await browser.newContext();
  const author = await authorContext.newPage();
  await author.goto('/login?returnTo=admin');
  await author.getByLabel(/username or email/i).fill(ADMIN.username);
  await author.getByLabel(/^password/i).fill(ADMIN.password);
  await author.getByRole('button', { name: 'Sign In' }).click();
  await expect(author).toHaveURL(/\/admin/);
  await author.goto('/admin/files');
  const title = ((await (await author.request.get('/api/books/featured')).json()) as { title: string }).title;
  await author.locator(`#notice-${bookId}-ebook-notify`).check();
  const note = 'Chapter twelve has its proper ending now. Thank you for reading.';
  await author.locator(`#notice-${bookId}-ebook-note`).fill(note);
  const master = path.join(process.cwd(), 'src/server/db/seed/files/what-we-owe-the-dead.epub');
  await author.getByLabel(`Replace E-Book (EPUB) for ${title}`).setInputFiles(master);
  await expectToast(author, 'File uploaded');
  await expect(author.getByText(/\d+ owners? will be told about this edition\./).first()).toBeVisible();
  await authorContext.close();

  const mail = await waitForMail(reader.email, /A new edition of/, 30_000);
  expect(mail.raw).toContain('One download of the new version is waiting in your library:');
  expect(mail.raw).toContain(`A note from the author:\n${note}`.replace(/\n/g, '\r\n'));

  await page.reload();
  const ebookRow = library.locator('li').filter({ has: page.getByText('E-Book', { exact: true }) });
  await expect(ebookRow.getByText('Updated', { exact: true })).toBeVisible();
  await ebookRow.getByRole('button', { name: 'Download E-Book' }).click();
  await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Download now' }).click()]);
  await expect(library.getByRole('button', { name: 'E-Book: Download Used' })).toBeDisabled();
  await page.reload();
  await expect(library.getByText('Updated', { exact: true })).toHaveCount(0);
});
