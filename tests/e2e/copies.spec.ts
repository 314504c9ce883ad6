import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, request as playwrightRequest, type Browser, type Page } from '@playwright/test';
import { ADMIN, uniqueReader, waitForMail, csrfToken, registerByApi, test } from './support';

/**
 * Personal copies: a reader sends their e-book to a Kindle (the mail arrives over SMTP with the EPUB
 * attached and the download is still unspent), downloads their copy, and the author traces that copy
 * back to the reader from the admin area.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

async function readerWithEbook(browser: Browser, baseURL: string) {
  const reader = uniqueReader();
  const api = await playwrightRequest.newContext({ baseURL });
  await registerByApi(api, reader);
  const featured = await (await api.get('/api/books/featured')).json();
  const checkout = await api.post('/api/checkout', { data: { bookId: featured.id, format: 'ebook' }, headers: { 'X-CSRF-Token': await csrfToken(api) } });
  expect(checkout.ok()).toBe(true);
  const context = await browser.newContext({ baseURL, storageState: await api.storageState(), acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto((await checkout.json()).url);
  await page.getByRole('button', { name: 'Pay £9.99' }).click();
  await expect(page).toHaveURL(/\/profile#library$/);
  await api.dispose();
  return { reader, page, context };
}

let copyFile = '';
let traced = { username: '', displayName: '', email: '', kindle: '' };

test('a reader sends their e-book to a Kindle without spending the download', async ({ browser, baseURL }) => {
  const { reader, page, context } = await readerWithEbook(browser, baseURL!);
  const kindle = `${reader.username}@kindle.com`;
  const library = page.locator('section[aria-labelledby="library-title"]').or(page.getByRole('region', { name: /Your Library/ }));
  await library.getByRole('button', { name: 'Send What We Owe the Dead to Kindle' }).click();

  const dialog = page.getByRole('dialog', { name: 'Send to Kindle' });
  await expect(dialog.getByText('We email your own copy of What We Owe the Dead to your Kindle. Sending does not use up your download.')).toBeVisible();
  await expect(dialog.getByText('no-reply@localhost', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Copy sender address' }).click();
  await expect(dialog.getByRole('button', { name: 'Copy sender address: copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('no-reply@localhost');

  await dialog.getByLabel('Kindle email address').fill('me@gmail.com');
  await dialog.getByRole('button', { name: 'Save address' }).click();
  await expect(dialog.getByText('Enter your Kindle address, ending in @kindle.com or @free.kindle.com')).toBeVisible();
  await dialog.getByLabel('Kindle email address').fill(kindle);
  await dialog.getByRole('button', { name: 'Save address' }).click();
  await dialog.getByRole('button', { name: `Send to ${kindle}` }).click();
  await expect(dialog.getByRole('status')).toHaveText(`On its way to ${kindle}. It usually arrives within a few minutes.`);
  await expect(dialog.getByText('1 of 5 sends used today.')).toBeVisible();
  await shot(page, `send-to-kindle-${page.viewportSize()!.width}`);

  // The mail goes out over SMTP with the EPUB attached.
  const mail = await waitForMail(kindle, /application\/epub\+zip/);
  expect(mail.raw).toMatch(/Content-Type: application\/epub\+zip; name=What-We-Owe-the-Dead\.epub/);
  expect(mail.raw).toContain('Your copy of What We Owe the Dead is attached');

  // Closing the dialog, the download is still there to use.
  await page.keyboard.press('Escape');
  const download = library.getByRole('button', { name: 'Download E-Book' });
  await expect(download).toBeEnabled();
  await download.click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Download now' }).click()]);
  copyFile = path.join(os.tmpdir(), `e2e-copy-${Date.now()}.epub`);
  await file.saveAs(copyFile);
  traced = { username: reader.username, displayName: reader.displayName, email: reader.email, kindle };
  await context.close();
});

test('the author traces a shared copy back to its purchase', async ({ page }) => {
  test.skip(!copyFile, 'needs the copy downloaded by the journey above');
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole('link', { name: /Trace a Copy/ }).click();
  await expect(page).toHaveURL(/\/admin\/trace$/);
  await expect(page.getByRole('heading', { name: 'Trace a Copy' })).toBeVisible();
  await page.getByLabel('EPUB or PDF file').setInputFiles(copyFile);
  await page.getByRole('button', { name: 'Trace this copy' }).click();
  const result = page.getByRole('region', { name: 'Copy found' });
  await expect(result).toBeVisible();
  // The reader by name and email, and the order reference: what the author needs to act on it.
  await expect(result.getByText(traced.displayName, { exact: true })).toBeVisible();
  await expect(result.getByRole('link', { name: traced.email })).toBeVisible();
  await expect(result.getByText(/^WWD-[0-9A-F]{10}$/)).toBeVisible();
  await expect(result.getByText(/user #/)).toHaveCount(0);
  await expect(result.getByText('E-Book (EPUB)')).toBeVisible();
  await shot(page, `trace-${page.viewportSize()!.width}`);

  // The master file as sold by nobody in particular carries no mark.
  const master = path.join(process.cwd(), 'src/server/db/seed/files/what-we-owe-the-dead.epub');
  await page.getByLabel('EPUB or PDF file').setInputFiles(master);
  await page.getByRole('button', { name: 'Trace this copy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Not a copy from this site' })).toContainText(
    'No copy made by this site was found in this file: it carries no purchase mark we know.',
  );

  // The order shows where the book was sent.
  await page.goto('/admin/orders');
  await page.getByLabel('Search buyer or order reference').fill(traced.username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('Send to Kindle history').first().click();
  await expect(page.getByText(traced.kindle)).toBeVisible();
  fs.rmSync(copyFile, { force: true });
});
