import { expect } from '@playwright/test';
import { ADMIN, test } from './support';

/** The operator's view: from the admin hub to the System page, which tells how the site runs in words. */
test('the admin reads the site health on the System page', async ({ page }) => {
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole('link', { name: /System/ }).click();
  await expect(page).toHaveURL(/\/admin\/system$/);
  await expect(page.getByRole('heading', { name: 'System', exact: true })).toBeVisible();

  const row = (label: string) => page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  await expect(row('Database')).toHaveText('PGlite (built in, one instance)');
  await expect(row('File store')).toContainText('Local disk');
  await expect(row('Payments')).toHaveText('Test payment page (no money moves)');
  await expect(row('Redis')).toHaveText('Not configured');
  // The journeys' SMTP listener is configured, so mail goes out through the mail-dispatch job.
  await expect(page.getByText('No SMTP server configured')).toHaveCount(0);
  await expect(page.getByText('Mail dispatch')).toBeVisible();
  await expect(page.getByText('Only with Stripe: the test payment page has nothing to reconcile.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent webhook failures' })).toBeVisible();

  // A forged webhook is refused and counted apart from the failures of real events.
  const forged = await page.request.post('/api/webhooks/stripe', {
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
    data: '{"type":"checkout.session.completed"}',
  });
  expect(forged.status()).toBe(400);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Forged webhooks' })).toBeVisible();
  await expect(row('Last 24 hours')).toHaveText('1');
  await expect(row('Last 7 days')).toHaveText('1');
  await expect(row('Most recent')).not.toHaveText('None');
});
