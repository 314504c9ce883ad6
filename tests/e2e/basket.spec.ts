import { expect } from '@playwright/test';
import { TEST_ADDRESS, fillRegisterForm, uniqueReader, waitForMail, test } from './support';

const card = (page: import('@playwright/test').Page, title: string) =>
  page.locator('#purchase li').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/**
 * The basket journey (issue 26 point 1): a signed-out visitor puts two hardcovers and the audiobook in the
 * basket, signs up (the basket is kept), pays every line once on the local payment page, and finds the
 * audiobook and the hardcover's included e-book in the library; the receipt lists the lines.
 */
test('a visitor fills a basket, signs up, pays once, and the library has the digital items', async ({ page }) => {
  const reader = uniqueReader();
  await page.goto('/');
  await page.locator('#purchase').scrollIntoViewIfNeeded();
  await card(page, 'Hardcover').getByRole('button', { name: 'Add to basket' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to your basket' }).first()).toBeVisible();
  await card(page, 'Hardcover').getByRole('button', { name: 'Add to basket' }).click();
  await card(page, 'Audiobook').getByRole('button', { name: 'Add to basket' }).click();
  const basketLink = page.getByRole('banner').getByRole('link', { name: 'Basket (3)' });
  await expect(basketLink).toBeVisible();

  await basketLink.click();
  await expect(page).toHaveURL(/\/basket$/);
  const lines = page.getByTestId('basket-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText('Hardcover');
  await expect(lines.nth(0)).toContainText('£49.98');
  await expect(lines.nth(1)).toContainText('Audiobook');
  await expect(page.getByTestId('basket-total')).toHaveText('£64.97');

  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/login\?returnTo=basket$/);
  await fillRegisterForm(page, reader);

  // Back on the basket, signed in: the visitor's lines are now the account's.
  await expect(page).toHaveURL(/\/basket$/, { timeout: 20_000 });
  await expect(lines).toHaveCount(2);
  await expect(page.getByTestId('basket-total')).toHaveText('£64.97');
  expect(await page.evaluate(() => window.localStorage.getItem('basket.visitor'))).toBeNull();

  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Your order' })).toBeVisible();
  const orderLines = page.getByTestId('order-line');
  await expect(orderLines).toHaveCount(2);
  await expect(orderLines.nth(0)).toContainText('(Hardcover) × 2');
  await expect(orderLines.nth(1)).toContainText('(Audiobook) × 1');
  await page.getByLabel('Full name').fill(TEST_ADDRESS.name);
  await page.getByLabel('Address line 1').fill(TEST_ADDRESS.line1);
  await page.getByLabel('Town or city').fill(TEST_ADDRESS.city);
  await page.getByLabel('Postcode').fill(TEST_ADDRESS.postalCode);
  await page.getByLabel('Country').fill(TEST_ADDRESS.country);
  await page.getByRole('button', { name: 'Pay £64.97' }).click();

  await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('banner').getByRole('link', { name: 'Basket (0)' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to My Library' }).click();
  await expect(page).toHaveURL(/\/profile#library$/);
  const library = page.locator('section[aria-labelledby="library-title"]');
  await expect(library.getByRole('button', { name: 'Download Audiobook' })).toBeVisible();
  await expect(library.getByRole('button', { name: 'Download E-Book' })).toBeVisible();

  const receipt = await waitForMail(reader.email, /Your receipt for order/);
  // The pound sign's bytes depend on the mail's transfer encoding; the figures do not.
  expect(receipt.raw).toMatch(/\(Hardcover\): 2 x \S*24\.99 = \S*49\.98/);
  expect(receipt.raw).toMatch(/\(Audiobook\): \S*14\.99/);
  expect(receipt.raw).toMatch(/Total paid: (<strong>)?\S*64\.97/);
});
