import { expect, request as playwrightRequest } from '@playwright/test';
import { ADMIN, csrfToken, postJson, test } from './support';

/**
 * The catalogue (decision 0075) on a phone and a desktop: the home page's link once three books are
 * published, /books with each book's series and prices, and a book's own page with its purchase section.
 */
const run = Date.now().toString(36);
const SERIES = `The Harrow Novels ${run}`;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  await postJson(api, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  for (const [title, seriesNumber, releaseAt] of [
    [`The Salt Road ${run}`, 2, '2026-01-10T09:00:00.000Z'],
    [`Tides ${run}`, 3, '2099-03-05T09:00:00.000Z'],
  ] as const) {
    const book = await postJson<{ id: number }>(api, '/api/admin/books', {
      title,
      tagline: `A tagline for ${title}`,
      synopsis: `The synopsis of ${title}, long enough to read.\n\nIts second paragraph.`,
      coverImage: '/images/covers/ebook-cover.svg',
      yearPublished: 2026,
      publisher: 'Harrow & Vane',
      series: SERIES,
      seriesNumber,
    });
    const res = await api.put(`/api/admin/books/${book.id}/pre-order`, {
      data: { releaseAt, prices: { hardcover: 2499, paperback: 1699, ebook: 999, audiobook: 1499 } },
      headers: { 'X-CSRF-Token': await csrfToken(api) },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await api.dispose();
});

for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('from the home page to the catalogue and a book page with its formats', async ({ page }) => {
      await page.goto('/');
      const link = page.getByRole('link', { name: /Browse all \d+ books/ });
      await link.scrollIntoViewIfNeeded();
      await link.click();
      await expect(page).toHaveURL(/\/books$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Books' })).toBeVisible();
      const salt = page.getByRole('article', { name: `The Salt Road ${run}` });
      await expect(salt.getByText(`Book 2 of ${SERIES}`)).toBeVisible();
      await expect(salt.getByRole('list', { name: `Formats of The Salt Road ${run}` })).toContainText('£24.99');
      await expect(page.getByRole('article', { name: `Tides ${run}` })).toContainText('Pre-order, available on 5 March 2099');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await salt.getByRole('link', { name: `The Salt Road ${run}` }).click();
      await expect(page).toHaveURL(new RegExp(`/books/the-salt-road-${run}$`));
      await expect(page.getByRole('heading', { level: 1, name: `The Salt Road ${run}` })).toBeVisible();
      await expect(page.getByText(`Book 2 of ${SERIES}`)).toBeVisible();
      await page.getByRole('link', { name: /Get your copy from £9.99/ }).click();
      const purchase = page.locator('#purchase');
      await expect(purchase.getByRole('heading', { name: 'Choose Your Format' })).toBeVisible();
      for (const price of ['£24.99', '£16.99', '£9.99', '£14.99']) await expect(purchase).toContainText(price);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // Loaded directly, the page arrives drawn by the server; an unpublished address is a real 404.
      const direct = await page.request.get(`/books/the-salt-road-${run}`);
      expect(direct.status()).toBe(200);
      expect(await direct.text()).toContain('"@type":"Book"');
      expect((await page.request.get('/books/no-such-book')).status()).toBe(404);
    });
  });
}
