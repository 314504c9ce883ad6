import { expect, request as playwrightRequest, type Page } from '@playwright/test';
import { ADMIN, uniqueReader, csrfToken, registerByApi, test } from './support';

/**
 * The author's journey: sign in, see the dashboard figures move after a real test purchase, add a book
 * and edit it, publish a post that then shows on /blog, and give a reader their download back.
 */

/** A real 1 x 1 PNG, so the preview can decode it. */
const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function salesFigures(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Sales' }).click();
  const sales = await page.getByRole('group', { name: 'Total Sales' }).locator('p').nth(1).innerText();
  const revenue = await page.getByRole('group', { name: 'Total Revenue' }).locator('p').nth(1).innerText();
  return { sales: Number(sales.replace(/,/g, '')), revenue: Math.round(Number(revenue.replace(/[£,]/g, '')) * 100) };
}

test('the author runs the site from the admin area', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);

  // --- sign in -------------------------------------------------------------------------------
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin', exact: true })).toBeVisible();

  const before = await salesFigures(page);
  await expect(page.getByText(/^Data as of \d{1,2} [A-Z][a-z]+ \d{4}$/)).toBeVisible();

  // --- a reader buys the e-book through the real API and the local payment page ----------------
  const reader = uniqueReader();
  const api = await playwrightRequest.newContext({ baseURL });
  const registered = await registerByApi(api, reader);
  const bearer = registered.token;
  const featured = await (await api.get('/api/books/featured')).json();
  const checkout = await api.post('/api/checkout', {
    data: { bookId: featured.id, format: 'ebook' },
    headers: { 'X-CSRF-Token': await csrfToken(api) },
  });
  expect(checkout.ok()).toBe(true);
  const { url: payUrl } = await checkout.json();

  const readerContext = await browser.newContext({ baseURL, storageState: await api.storageState() });
  const readerPage = await readerContext.newPage();
  await readerPage.goto(payUrl);
  await readerPage.getByRole('button', { name: 'Pay £9.99' }).click();
  await expect(readerPage).toHaveURL(/\/profile#library$/);
  await readerContext.close();

  // --- the dashboard moved by one sale and £9.99 ----------------------------------------------
  const after = await salesFigures(page);
  expect(after).toEqual({ sales: before.sales + 1, revenue: before.revenue + 999 });

  // --- add a book, then edit it ------------------------------------------------------------------
  const title = `The Long Tide ${Date.now().toString(36)}`;
  await page.goto('/admin/books/create');
  await expect(page.getByRole('heading', { name: 'Add New Book' })).toBeVisible();
  await expect(page.getByLabel('Year published')).toHaveValue(String(new Date().getFullYear()));
  await page.getByRole('button', { name: 'Create Book' }).click();
  await expect(page.getByText('Title is required')).toBeVisible();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Tagline').fill('Some debts are paid in salt water.');
  await page.getByLabel('Synopsis').fill('A third novel, set on the same cold coast, years after the storm.');
  // The cover is uploaded (checked by its bytes on the server) and previewed, never typed.
  await page.getByLabel('Upload image').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
  const preview = page.getByRole('img', { name: 'Cover image: preview' });
  await expect(preview).toHaveAttribute('src', /^\/media\/images\/[a-f0-9]{32}\.png$/);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  const served = await page.request.get((await preview.getAttribute('src'))!);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  await page.getByLabel('Publisher').fill('Harrow & Vane');
  await page.getByRole('button', { name: 'Create Book' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page.getByRole('heading', { name: 'Edit Book' })).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await page.getByLabel('Title').fill(`${title} (Revised)`);
  await page.getByLabel('Year published').fill('2028');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('link', { name: `Edit ${title} (Revised)` })).toBeVisible();
  await expect(page.getByText('2028 · Harrow & Vane')).toBeVisible();

  // --- publish a post that then shows on /blog ----------------------------------------------------
  const postTitle = `Dispatch from Skelling ${Date.now().toString(36)}`;
  await page.goto('/admin/posts/new');
  await page.getByLabel('Title').fill(postTitle);
  await page.getByLabel('Excerpt').fill('A short note from the harbour.');
  // Written in the rich-text editor: a sentence with a bold word, then a heading from the toolbar.
  const editor = page.getByRole('textbox', { name: 'Content' });
  await editor.click();
  await page.keyboard.type('The gulls are ');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('back');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('.');
  await page.keyboard.press('Enter');
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Heading', exact: true }).click();
  await page.keyboard.type('At the harbour');
  await page.getByRole('button', { name: 'Save Post' }).click();
  await expect(page).toHaveURL(/\/admin\/posts$/);
  await expect(page.getByRole('rowheader', { name: new RegExp(postTitle) })).toBeVisible();
  await page.goto('/blog');
  // Wait for the list itself, so the absence below is a real answer and not a page still loading.
  await expect(page.getByRole('link', { name: /Read More/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: postTitle, exact: true })).toHaveCount(0);
  await page.goto('/admin/posts');
  await page.getByRole('button', { name: `Publish ${postTitle}` }).click();
  await expect(page.getByRole('button', { name: `Unpublish ${postTitle}` })).toBeVisible();
  await page.goto('/blog');
  await page.getByRole('link', { name: postTitle, exact: true }).click();
  await expect(page.getByRole('heading', { name: postTitle })).toBeVisible();
  await expect(page.getByText('The gulls are back.')).toBeVisible();
  await expect(page.getByTestId('post-content').locator('strong')).toHaveText('back');
  await expect(page.getByTestId('post-content').getByRole('heading', { level: 2, name: 'At the harbour' })).toBeVisible();

  // --- the reader spends their download; the author gives it back ----------------------------------
  const auth = { Authorization: `Bearer ${bearer}` };
  const lookup = await api.get(`/api/books/${featured.id}/assets?format=ebook`, { headers: auth });
  const assetId = (await lookup.json()).asset.id;
  expect((await api.get(`/api/digital-assets/${assetId}/download`, { headers: auth })).status()).toBe(200);
  expect((await api.get(`/api/digital-assets/${assetId}/download`, { headers: auth })).status()).toBe(403);

  await page.goto('/admin/orders');
  await page.getByLabel('Search buyer or order reference').fill(reader.username);
  await page.getByRole('button', { name: 'Search' }).click();
  const rows = page.getByRole('row').filter({ hasText: reader.email });
  // The e-book and the PDF edition that comes with it, each with its own download.
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'PDF' }).getByText('Included with the e-book')).toBeVisible();
  const row = rows.filter({ hasNotText: 'PDF' });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('1 of 1 download used')).toBeVisible();
  await row.getByRole('button', { name: /Reset download/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Download reset' }).first()).toBeVisible();
  await expect(row.getByText('0 of 1 download used')).toBeVisible();

  expect((await api.get(`/api/digital-assets/${assetId}/download`, { headers: auth })).status()).toBe(200);
  expect((await api.get(`/api/digital-assets/${assetId}/download`, { headers: auth })).status()).toBe(403);
  await api.dispose();
});
