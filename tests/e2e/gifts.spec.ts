import { expect } from '@playwright/test';
import { ADMIN, fillRegisterForm, uniqueReader, waitForMail, test } from './support';

/**
 * Gifts (issue 15): a reader gives the e-book with a message, the recipient gets the mail over SMTP,
 * opens the link signed out, registers with another email, comes back to the gift and claims it; the
 * buyer's orders say it was claimed and their library stays empty.
 */
test('a reader gives the e-book as a gift and a new reader claims it from the mail', async ({ page, browser }) => {
  const buyer = uniqueReader();
  await page.goto('/login');
  await fillRegisterForm(page, buyer);
  await expect(page).toHaveURL(/\/profile/);

  await page.goto('/#purchase');
  const ebook = page.locator('#purchase li').filter({ has: page.getByRole('heading', { name: 'E-Book', exact: true }) });
  await ebook.getByRole('button', { name: 'Buy as a gift' }).click();
  await expect(page).toHaveURL(/\/checkout\?.*gift=1/);
  const form = page.getByRole('form', { name: 'Buy as a gift' });
  const recipientEmail = `friend_${Date.now().toString(36)}@example.org`;
  await form.getByLabel('Recipient name').fill('Fran');
  await form.getByLabel('Recipient email').fill(recipientEmail);
  await form.getByLabel('Message (optional)').fill('For the long train home. Love, A.');
  await form.getByRole('button', { name: 'Continue to payment' }).click();

  await expect(page).toHaveURL(/\/pay\/[\w-]+$/);
  await page.getByRole('button', { name: 'Pay £9.99' }).click();
  await expect(page).toHaveURL(/\/profile#library$/);
  const orders = page.locator('section[aria-labelledby="orders-title"]');
  await expect(orders.getByText(/a gift for Fran/)).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(orders.getByText('Gift sent')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('1 format purchased')).toHaveCount(0);

  const mail = await waitForMail(recipientEmail, /\/gift\/[\w-]+/);
  expect(mail.raw).toContain('For the long train home. Love, A.');
  const link = /https?:\/\/[^\s"]+\/gift\/[\w-]+/.exec(mail.raw)![0];

  const context = await browser.newContext();
  const recipientPage = await context.newPage();
  await recipientPage.goto(link);
  await expect(recipientPage.getByText(`From ${buyer.displayName}`)).toBeVisible();
  await expect(recipientPage.getByText('For the long train home. Love, A.')).toBeVisible();
  await recipientPage.getByRole('button', { name: 'Create an account' }).click();
  await expect(recipientPage).toHaveURL(/\/login\?returnTo=gift$/);
  const recipient = uniqueReader();
  await fillRegisterForm(recipientPage, recipient);
  await expect(recipientPage).toHaveURL(new RegExp(`${new URL(link).pathname}$`));
  await recipientPage.getByRole('button', { name: 'Claim your gift' }).click();
  await expect(recipientPage).toHaveURL(/\/profile#library$/);
  // The e-book and its PDF edition (decision 0066).
  await expect(recipientPage.getByText('2 formats purchased')).toBeVisible();
  await expect(recipientPage.getByRole('button', { name: 'Download E-Book' })).toBeEnabled();

  // The same link cannot be claimed again.
  await recipientPage.goto(link);
  await expect(recipientPage.getByText('This gift has already been claimed.')).toBeVisible();
  await context.close();

  await page.reload();
  await expect(orders.getByText('Gift claimed')).toBeVisible();
});

/** Pre-orders (issue 15): the admin opens pre-orders on the upcoming book; a reader pre-orders the e-book. */
test('the admin opens pre-orders for the upcoming book and a reader pre-orders it', async ({ page, browser }) => {
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const books = (await (await page.request.get('/api/books')).json()) as Array<{ id: number; featured: boolean; title: string }>;
  const upcoming = books.find((b) => !b.featured)!;
  await page.goto(`/admin/books/edit/${upcoming.id}`);
  const settings = page.getByRole('form', { name: 'Release and prices' });
  const release = new Date(Date.now() + 30 * 24 * 3600_000);
  const local = `${release.getFullYear()}-${String(release.getMonth() + 1).padStart(2, '0')}-${String(release.getDate()).padStart(2, '0')}T09:00`;
  await settings.getByLabel('Release date and time').fill(local);
  await settings.getByLabel('E-Book').fill('12.99');
  await settings.getByLabel('Hardcover').fill('25.99');
  await settings.getByRole('button', { name: 'Save release and prices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Release and prices saved' }).first()).toBeVisible();

  const context = await browser.newContext();
  const reader = await context.newPage();
  await reader.goto('/login');
  await fillRegisterForm(reader, uniqueReader());
  await expect(reader).toHaveURL(/\/profile/);
  await reader.goto('/#upcoming');
  const area = reader.getByRole('region', { name: /Pre-order: out on/ });
  await expect(area.getByText('£12.99')).toBeVisible();
  await area.getByRole('button', { name: 'Pre-order E-Book' }).click();
  await expect(reader).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
  await reader.getByRole('button', { name: 'Pay £12.99' }).click();
  await expect(reader).toHaveURL(/\/profile#library$/);
  // The library row says it (and so does the order, under Your Orders).
  await expect(reader.locator('section[aria-labelledby="library-title"] li li').getByText(/^Pre-order, available on \d{1,2} \w+ \d{4}$/)).toBeVisible();
  await expect(reader.locator('section[aria-labelledby="orders-title"]').getByText(/^Pre-order, available on \d{1,2} \w+ \d{4}$/)).toBeVisible();
  await expect(reader.getByRole('button', { name: /Download/ })).toHaveCount(0);

  // The home page says PreOrder in its JSON-LD.
  const html = await (await reader.request.get('/')).text();
  expect(html).toContain('"availability":"https://schema.org/PreOrder"');
  await context.close();
});
