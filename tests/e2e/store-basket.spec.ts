import { type APIRequestContext, type Page, expect, request as playwrightRequest } from '@playwright/test';
import { ADMIN, TEST_ADDRESS, csrfToken, postJson, registerByApi, uniqueReader, waitForMail, test } from './support';

const card = (page: Page, title: string) => page.locator('#purchase li').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  await postJson(api, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  return api;
}

async function send(api: APIRequestContext, method: 'PUT' | 'DELETE', url: string, data?: unknown) {
  const res = await api.fetch(url, { method, data, headers: { 'X-CSRF-Token': await csrfToken(api) } });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
}

/**
 * The store journey of issue 26: a signed-out visitor fills a basket with two hardcovers and the audiobook,
 * signs in (the basket is kept), picks where the books go, sees the shipping line and the tax, applies a
 * code, pays once; the library, the admin's orders, the receipt and the shipped mail all follow. The
 * journey sets up the shipping zone, tax rate and code it needs through the admin API and puts the tax
 * setting back and removes the zone afterwards, so the journeys after it see the store as it was.
 */
test('a visitor fills a basket with print and audio, signs in, sees shipping and tax, pays once, and the order is shipped with tracking', async ({ page, browser, baseURL }) => {
  test.setTimeout(150_000);
  const admin = await adminApi(baseURL!);
  const taxBefore = await (await admin.get('/api/admin/tax')).json();
  const zone = await postJson<{ id: number }>(admin, '/api/admin/shipping-zones', {
    name: 'Journey United Kingdom',
    countries: ['GB'],
    firstItem: 350,
    additionalItem: 150,
    freeOver: null,
  });
  const code = `SHIP${Date.now().toString(36).toUpperCase()}`;
  try {
    // Prices include tax (the UK way); the audiobook carries 20% in the UK, print 0% (the default).
    await send(admin, 'PUT', '/api/admin/tax', { pricesIncludeTax: true, defaultRate: 0, rates: [{ country: 'GB', format: 'audiobook', rate: 20 }] });
    await postJson(admin, '/api/admin/discounts', { code, amountOff: 250, formats: ['hardcover'], maxRedemptions: 5 });

    const reader = uniqueReader();
    const readerApi = await playwrightRequest.newContext({ baseURL });
    await registerByApi(readerApi, reader);
    await readerApi.dispose();

    // Signed out: two hardcovers and the audiobook.
    await page.goto('/');
    await page.locator('#purchase').scrollIntoViewIfNeeded();
    await card(page, 'Hardcover').getByRole('button', { name: 'Add to basket' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Basket (1)' })).toBeVisible();
    await card(page, 'Hardcover').getByRole('button', { name: 'Add to basket' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Basket (2)' })).toBeVisible();
    await card(page, 'Audiobook').getByRole('button', { name: 'Add to basket' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Basket (3)' }).click();
    await expect(page).toHaveURL(/\/basket$/);
    await expect(page.getByTestId('basket-line')).toHaveCount(2);

    // Checkout asks a visitor to sign in; they come back to the same basket.
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/login\?returnTo=basket$/);
    await page.getByLabel(/username or email/i).fill(reader.username);
    await page.getByLabel(/^password/i).fill(reader.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/basket$/, { timeout: 20_000 });
    const lines = page.getByTestId('basket-line');
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(0)).toContainText('Hardcover');
    await expect(lines.nth(0)).toContainText('£49.98');
    await expect(lines.nth(1)).toContainText('Audiobook');

    // The destination: shipping £3.50 + £1.50, the audiobook's 20% inside its price.
    await expect(page.getByTestId('basket-shipping')).toContainText('Choose a country');
    await expect(page.getByRole('button', { name: 'Checkout' })).toBeDisabled();
    await page.getByLabel('Ship printed books to').selectOption({ label: 'United Kingdom' });
    await expect(page.getByTestId('basket-shipping')).toHaveText('Shipping to United Kingdom£5.00');
    await expect(page.getByTestId('basket-tax')).toHaveText('£2.50');
    await expect(page.getByText('Tax included', { exact: true })).toBeVisible();
    await expect(page.getByTestId('basket-net')).toHaveText('£67.47');
    await expect(page.getByTestId('basket-total')).toHaveText('£69.97');

    // The code takes £2.50 off each hardcover.
    await page.getByLabel('Discount code').fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('basket-discount')).toHaveText('-£5.00');
    await expect(page.getByTestId('basket-net')).toHaveText('£62.47');
    await expect(page.getByTestId('basket-total')).toHaveText('£64.97');

    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
    const orderLines = page.getByTestId('order-line');
    await expect(orderLines).toHaveCount(2);
    await expect(orderLines.nth(0)).toContainText('(Hardcover) × 2');
    await expect(orderLines.nth(1)).toContainText('(Audiobook) × 1');
    await expect(page.getByTestId('discount')).toHaveText('-£5.00');
    await expect(page.getByTestId('order-shipping')).toHaveText('Shipping to United Kingdom£5.00');
    await expect(page.getByTestId('order-net')).toHaveText('£62.47');
    await expect(page.getByTestId('order-tax')).toHaveText('£2.50');
    await page.getByLabel('Full name').fill(TEST_ADDRESS.name);
    await page.getByLabel('Address line 1').fill(TEST_ADDRESS.line1);
    await page.getByLabel('Town or city').fill(TEST_ADDRESS.city);
    await page.getByLabel('Postcode').fill(TEST_ADDRESS.postalCode);
    await page.getByLabel('Country').fill(TEST_ADDRESS.country);
    await page.getByRole('button', { name: 'Pay £64.97' }).click();
    await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible({ timeout: 20_000 });

    await page.getByRole('link', { name: 'Go to My Library' }).click();
    const library = page.locator('section[aria-labelledby="library-title"]');
    await expect(library.getByRole('button', { name: 'Download Audiobook' })).toBeVisible();
    await expect(library.getByRole('button', { name: 'Download E-Book' })).toBeVisible();

    // One receipt: every line, the discount, the shipping line and the tax.
    const receipt = await waitForMail(reader.email, /Your receipt for order/);
    expect(receipt.raw).toMatch(/\(Hardcover\): 2 x \S*24\.99 = \S*49\.98, \S*44\.98 after discount/);
    expect(receipt.raw).toMatch(/\(Audiobook\): \S*14\.99/);
    expect(receipt.raw).toMatch(/Shipping to United Kingdom: \S*5\.00/);
    expect(receipt.raw).toMatch(/Tax included: \S*2\.50/);
    expect(receipt.raw).toMatch(/Total paid: (<strong>)?\S*64\.97/);

    // The author sees one order with its two lines, and ships the hardcovers with tracking.
    const authorContext = await browser.newContext({ baseURL });
    const author = await authorContext.newPage();
    await author.goto('/login?returnTo=admin');
    await author.getByLabel(/username or email/i).fill(ADMIN.username);
    await author.getByLabel(/^password/i).fill(ADMIN.password);
    await author.getByRole('button', { name: 'Sign In' }).click();
    await expect(author).toHaveURL(/\/admin$/);
    await author.goto('/admin/orders');
    await author.getByLabel('Search buyer or order reference').fill(reader.email);
    await author.getByRole('button', { name: 'Search' }).click();
    // Its two lines, and what the hardcovers include (the e-book and its PDF edition), all of one order.
    const rows = author.locator('tr[data-testid^="order-"]');
    await expect(rows).toHaveCount(4);
    const references = (await rows.locator('td:first-child .font-mono').allTextContents()).map((r) => r.replace(/-\d+(-[A-Z-]+)?$/, ''));
    expect(new Set(references).size).toBe(1);
    await expect(rows.filter({ hasText: 'Included with' })).toHaveCount(2);
    const hardcoverRow = rows.filter({ hasText: 'Hardcover' });
    await expect(hardcoverRow).toContainText('£44.98');
    await expect(rows.filter({ hasText: 'Audiobook' })).toContainText('£14.99');
    await hardcoverRow.getByRole('button', { name: /^Mark order .+ shipped$/ }).click();
    const dialog = author.getByRole('dialog');
    await dialog.getByLabel('Carrier').fill('Royal Mail');
    await dialog.getByLabel('Tracking number').fill('RM123456789GB');
    await dialog.getByLabel('Tracking link (optional)').fill('https://www.royalmail.com/track-your-item#/tracking-results/RM123456789GB');
    await dialog.getByRole('button', { name: 'Mark shipped' }).click();
    await expect(author.getByRole('status').filter({ hasText: 'Order shipped' }).first()).toBeVisible();
    await authorContext.close();

    const shipped = await waitForMail(reader.email, /is on its way/);
    expect(shipped.raw).toContain('Carrier: Royal Mail');
    expect(shipped.raw).toContain('Tracking number: RM123456789GB');
    expect(shipped.raw).toContain('Track your parcel: https://www.royalmail.com/track-your-item#/tracking-results/RM123456789GB');
  } finally {
    await send(admin, 'PUT', '/api/admin/tax', taxBefore);
    await send(admin, 'DELETE', `/api/admin/shipping-zones/${zone.id}`);
    await admin.dispose();
  }
});
