import { type APIRequestContext, type Page, expect, request as playwrightRequest } from '@playwright/test';
import { ADMIN, csrfToken, postJson, readerWith, test } from './support';

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  await postJson(api, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  return api;
}

/** The bundle's card in the home page's purchase section. */
const bundleCard = (page: Page, name: string) => page.locator('#purchase').getByRole('listitem', { name, exact: true });

/**
 * Issue 26's bundle: a reader who bought the e-book sees "Complete your set" on an "e-book + audiobook"
 * bundle, puts it in the basket, pays the bundle price less what the e-book cost them, once, and the
 * library then has the audiobook. The journey makes the bundle through the admin API and switches it off
 * afterwards, so the journeys after it see the store as it was.
 */
test('a reader who owns the e-book completes the set with the audiobook for the bundle price less the e-book', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const admin = await adminApi(baseURL!);
  const { bookId } = await readerWith(page.request, ['ebook']);
  const formats = (await (await page.request.get('/api/store/formats')).json()) as { formats: Array<{ id: string; price: number }> };
  const priceOf = (format: string) => formats.formats.find((f) => f.id === format)!.price;
  const ebook = priceOf('ebook');
  const audiobook = priceOf('audiobook');
  // Cheaper than both apart, dearer than the audiobook alone, so the reader still pays something for it.
  const bundlePrice = ebook + audiobook - 500;
  const name = `Read and listen ${Date.now().toString(36)}`;
  const items = [
    { bookId, format: 'ebook' },
    { bookId, format: 'audiobook' },
  ];
  const bundle = await postJson<{ id: number }>(admin, '/api/admin/bundles', { name, items, price: bundlePrice, active: true });
  const yourPrice = bundlePrice - ebook;
  try {
    await page.goto('/');
    await page.locator('#purchase').scrollIntoViewIfNeeded();
    const card = bundleCard(page, name);
    await expect(card).toBeVisible();
    await expect(card.getByText(`Complete your set: ${pounds(yourPrice)}`)).toBeVisible();
    await expect(card.getByText(pounds(yourPrice), { exact: true })).toBeVisible();
    await expect(card.locator('s')).toHaveText(pounds(bundlePrice));
    // Against the audiobook bought alone.
    await expect(card.getByText(`Save ${pounds(audiobook - yourPrice)}`)).toBeVisible();
    const parts = card.getByRole('list', { name: `In ${name}` }).getByRole('listitem');
    await expect(parts).toHaveCount(2);
    await expect(parts.nth(0)).toContainText(`E-Book (${pounds(ebook)})In your library`);
    await expect(parts.nth(1)).toContainText(`Audiobook (${pounds(audiobook)})`);
    await expect(parts.nth(1)).not.toContainText('In your library');

    // One screenshot of the cards at a phone's width and at the desktop's, to look at.
    const section = page.locator('#purchase section').filter({ has: page.getByRole('heading', { name: 'Bundles' }) });
    await section.screenshot({ path: `/tmp/bundle-cards-1366.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `/tmp/bundle-cards-390.png` });
    await page.setViewportSize({ width: 1366, height: 900 });

    // The library offers the same, where the e-book is.
    await page.goto('/profile#library');
    await expect(page.getByRole('listitem', { name: `Add the audiobook for ${pounds(yourPrice)}` })).toBeVisible();

    await page.goto('/');
    await page.locator('#purchase').scrollIntoViewIfNeeded();
    await bundleCard(page, name).getByRole('button', { name: `Add ${name} to basket` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added to your basket' }).first()).toBeVisible();
    await page.getByRole('banner').getByRole('link', { name: 'Basket (1)' }).click();
    await expect(page).toHaveURL(/\/basket$/);
    const line = page.getByTestId('basket-line');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(name);
    await expect(line).toContainText('Bundle');
    await expect(line).toContainText(pounds(yourPrice));
    await expect(page.getByTestId('basket-total')).toHaveText(pounds(yourPrice));

    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
    // Only the audiobook is bought: the e-book is the reader's already.
    const orderLines = page.getByTestId('order-line');
    await expect(orderLines).toHaveCount(1);
    await expect(orderLines.nth(0)).toContainText(`${name}: `);
    await expect(orderLines.nth(0)).toContainText('(Audiobook)');
    await page.getByRole('button', { name: `Pay ${pounds(yourPrice)}` }).click();
    await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible({ timeout: 20_000 });

    await page.getByRole('link', { name: 'Go to My Library' }).click();
    const library = page.locator('section[aria-labelledby="library-title"]');
    await expect(library.getByRole('button', { name: 'Download Audiobook' })).toBeVisible();
    await expect(library.getByRole('button', { name: 'Download E-Book' })).toBeVisible();
    await expect(page.getByRole('listitem', { name: `Add the audiobook for ${pounds(yourPrice)}` })).toHaveCount(0);

    // Paid once, at the reader's price; the set is now whole.
    const orders = (await (await page.request.get('/api/library/orders')).json()) as Array<{ format: string; price: number; displayPrice: string }>;
    expect(orders.map((o) => [o.format, o.displayPrice]).sort()).toEqual([
      ['audiobook', pounds(yourPrice)],
      ['ebook', pounds(ebook)],
    ]);
    await page.goto('/');
    await page.locator('#purchase').scrollIntoViewIfNeeded();
    await expect(bundleCard(page, name).getByText('Every format of this bundle is in your library')).toBeVisible();
  } finally {
    const res = await admin.fetch(`/api/admin/bundles/${bundle.id}`, {
      method: 'PUT',
      data: { name, items, price: bundlePrice, active: false },
      headers: { 'X-CSRF-Token': await csrfToken(admin) },
    });
    expect(res.ok(), `switching the bundle off: ${res.status()}`).toBe(true);
    await admin.dispose();
  }
});
