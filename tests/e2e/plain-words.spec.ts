import { expect, type Page } from '@playwright/test';
import { ADMIN, registerByApi, uniqueReader, test } from './support';

/**
 * Words people see (issue 25, point 8): a reader buys a paperback on the local payment page, which asks
 * where to ship it; the confirmation, "Your Orders" and the author's orders say it in plain words; paths
 * that name nothing answer the not-found page. At 390 and 1366 px.
 */
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/plain-words-${name}.png`, fullPage: true });

for (const width of [390, 1366]) {
  test(`a paperback ships to the address typed on the payment page, in plain words everywhere (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const reader = uniqueReader();
    await registerByApi(page.request, reader);

    await page.goto('/');
    const purchase = page.locator('#purchase');
    await purchase.scrollIntoViewIfNeeded();
    await purchase.getByRole('button', { name: 'Buy Paperback' }).click();
    await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
    const address = page.getByRole('group', { name: 'Shipping address' });
    await expect(address).toBeVisible();
    await expect(page.getByText('Paperback × 1')).toBeVisible();
    await page.getByRole('button', { name: 'Pay £16.99' }).click();
    await expect(address.getByText('Enter the first line of the address')).toBeVisible();
    await shot(page, `pay-address-${width}`);

    await address.getByLabel('Full name').fill('Ada Reader');
    await address.getByLabel('Address line 1').fill('1 Harbour Street');
    await address.getByLabel('Town or city').fill('Whitby');
    await address.getByLabel('Postcode').fill('YO21 3PU');
    await page.getByRole('button', { name: 'Pay £16.99' }).click();
    await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible();
    await expect(page.getByText('Shipping to')).toBeVisible();
    await expect(page.getByText('Whitby YO21 3PU')).toBeVisible();
    await expect(page.getByText('Total paid')).toBeVisible();
    await shot(page, `confirmation-${width}`);

    await page.goto('/profile#library');
    const orders = page.locator('section[aria-labelledby="orders-title"]');
    await expect(orders.getByRole('heading', { name: 'Your Orders' })).toBeVisible();
    await expect(orders.getByText(/Paperback/).first()).toBeVisible();
    await expect(orders.getByText('Preparing to ship')).toBeVisible();
    await expect(orders.getByText(/completed|paperback\b/)).toHaveCount(0);
    await orders.scrollIntoViewIfNeeded();
    await shot(page, `your-orders-${width}`);

    // The author: the order in words, with the address to ship to.
    const author = await page.context().browser()!.newContext({ viewport: { width, height: 900 } });
    const admin = await author.newPage();
    await admin.goto('/login?returnTo=admin');
    await admin.getByLabel(/username or email/i).fill(ADMIN.username);
    await admin.getByLabel(/^password/i).fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign In' }).click();
    await expect(admin).toHaveURL(/\/admin$/);
    await admin.goto('/admin/orders');
    await admin.getByLabel('Search buyer or order reference').fill(reader.username);
    await admin.getByRole('button', { name: 'Search' }).click();
    const row = admin.getByRole('row').filter({ hasText: 'Paperback' });
    await expect(row).toHaveCount(1);
    await expect(row.getByText(reader.displayName)).toBeVisible();
    await expect(row.getByText('Paid, to ship')).toBeVisible();
    await expect(row.getByText('1 Harbour Street')).toBeVisible();
    await shot(admin, `admin-orders-${width}`);

    // Paths that name nothing: the not-found page, with status 404.
    const unknownAdmin = await admin.goto('/admin/no-such-page');
    expect(unknownAdmin!.status()).toBe(404);
    await expect(admin.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    const unknownBook = await admin.goto('/read/999999/ebook');
    expect(unknownBook!.status()).toBe(404);
    await expect(admin.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();

    // The author opens their own book in the reader from Digital Files.
    await admin.goto('/admin/files');
    await admin.getByRole('link', { name: /^Read the E-Book \(EPUB\) of / }).click();
    await expect(admin).toHaveURL(/\/read\/\d+\/ebook$/);
    // The book opens for its author: the reader's page controls, never "Not in your library".
    await expect(admin.getByRole('button', { name: 'Next page' })).toBeEnabled({ timeout: 20_000 });
    await expect(admin.getByText('Not in your library')).toHaveCount(0);
    await shot(admin, `author-reads-${width}`);
    await author.close();
  });
}
