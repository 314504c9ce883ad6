import { expect, request as playwrightRequest } from '@playwright/test';
import { ADMIN, uniqueReader, waitForMail, registerByApi, test } from './support';

/**
 * Discount codes: the author creates a code on the "Discount Codes" page; a reader types it in the
 * purchase section, sees the list price struck through at checkout and on the payment page, pays the
 * discounted price, and the receipt and the admin page agree.
 */

test('a reader applies a discount code and pays the discounted price', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const code = `LAUNCH${Date.now().toString(36).toUpperCase()}`;

  // --- the author creates a 20% code ---------------------------------------------------------
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('link', { name: /Discount Codes/ }).click();
  await expect(page.getByRole('heading', { name: 'Discount Codes' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New discount code' });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Percent off').fill('20');
  await form.getByLabel('Maximum uses').fill('10');
  await form.getByRole('button', { name: 'Create Code' }).click();
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toContainText('20% off');
  await expect(row).toContainText('0 of 10');

  // --- a signed-in reader uses it ------------------------------------------------------------
  const reader = uniqueReader();
  const api = await playwrightRequest.newContext({ baseURL });
  await registerByApi(api, reader);
  const readerContext = await browser.newContext({ baseURL, storageState: await api.storageState() });
  const tab = await readerContext.newPage();

  await tab.goto('/');
  const purchase = tab.locator('#purchase');
  await purchase.scrollIntoViewIfNeeded();
  await purchase.getByLabel('Discount code').fill(code.toLowerCase());
  await purchase.getByRole('button', { name: 'Buy E-Book' }).click();

  await expect(tab).toHaveURL(/\/checkout\?/);
  await expect(tab.getByTestId('original-price')).toHaveText(/£9\.99/);
  await expect(tab.getByTestId('price-to-pay')).toHaveText(/£7\.99/);
  await tab.getByRole('button', { name: 'Continue to payment' }).click();

  await expect(tab).toHaveURL(/\/pay\/[\w-]+$/);
  await expect(tab.getByTestId('original-price').first()).toHaveText(/£9\.99/);
  await expect(tab.getByText(code, { exact: true })).toBeVisible();
  await tab.getByRole('button', { name: 'Pay £7.99' }).click();

  await expect(tab).toHaveURL(/\/profile#library$/);
  await expect(tab.getByText('2 formats purchased')).toBeVisible();
  const receipt = await waitForMail(reader.email, /profile#library/);
  expect(receipt.raw).toContain('£7.99');

  // --- the author sees the use counted -------------------------------------------------------
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('1 of 10');
  await readerContext.close();
  await api.dispose();
});
