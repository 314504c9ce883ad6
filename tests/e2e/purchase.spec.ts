import fs from 'node:fs';
import { expect } from '@playwright/test';
import { uniqueReader, waitForMail, fillRegisterForm, test } from './support';

/**
 * The store journey: a new visitor chooses the e-book, is sent to log in, registers, the purchase
 * resumes, they pay on the local payment page, find the e-book in My Library, download a valid EPUB
 * once, and the button then reads "Download Used".
 */
test('a new visitor buys the e-book and downloads it exactly once', async ({ page }) => {
  const reader = uniqueReader();

  await page.goto('/');
  const purchase = page.locator('#purchase');
  await purchase.scrollIntoViewIfNeeded();
  await expect(purchase.getByText('£9.99')).toBeVisible();
  await purchase.getByRole('button', { name: 'Buy E-Book' }).click();

  await expect(page).toHaveURL(/\/login\?returnTo=purchase$/);
  const intent = await page.evaluate(() => window.localStorage.getItem('purchase-intent'));
  expect(JSON.parse(intent!)).toMatchObject({ format: 'ebook', returnToPurchase: true });

  await fillRegisterForm(page, reader);

  // The purchase resumes on its own: checkout, then the hosted (local) payment page.
  await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'What We Owe the Dead' })).toBeVisible();
  await expect(page.getByText('E-Book').first()).toBeVisible();
  await page.getByRole('button', { name: 'Pay £9.99' }).click();

  await expect(page).toHaveURL(/\/profile#library$/);
  const library = page.getByRole('region', { name: /Your Library/ }).or(page.locator('section[aria-labelledby="library-title"]'));
  // The e-book and the PDF edition that comes with it (decision 0066).
  await expect(library.getByText('2 formats purchased')).toBeVisible();
  const download = library.getByRole('button', { name: 'Download E-Book' });
  await expect(download).toBeEnabled();

  // The one download is announced before it is spent.
  await download.click();
  const confirm = page.getByRole('dialog', { name: 'Download the E-Book once' });
  await expect(confirm.getByText('Reading or listening in the browser never uses your download.')).toBeVisible();
  const [file] = await Promise.all([page.waitForEvent('download'), confirm.getByRole('button', { name: 'Download now' }).click()]);
  expect(file.suggestedFilename()).toBe('What We Owe the Dead.epub');
  const bytes = fs.readFileSync((await file.path())!);
  // An EPUB is a zip whose first entry is an uncompressed "mimetype" file reading application/epub+zip.
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const nameLength = bytes.readUInt16LE(26);
  const extraLength = bytes.readUInt16LE(28);
  expect(bytes.subarray(30, 30 + nameLength).toString('latin1')).toBe('mimetype');
  const start = 30 + nameLength + extraLength;
  expect(bytes.subarray(start, start + 20).toString('latin1')).toBe('application/epub+zip');

  await expect(page.getByRole('status').filter({ hasText: 'Download Started' }).first()).toBeVisible();
  await expect(library.getByRole('button', { name: /Download Used/ })).toBeDisabled();
  await expect(library.getByRole('button', { name: /Download Used/ })).toHaveText('Download Used');

  // The receipt arrives over SMTP with a link to the library.
  const receipt = await waitForMail(reader.email, /profile#library/);
  expect(receipt.raw).toMatch(/WWD-[0-9A-F]{10}/);
  expect(receipt.raw).toContain('£9.99');
});
