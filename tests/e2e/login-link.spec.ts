import { expect } from '@playwright/test';
import { waitForMail, test } from './support';

/**
 * Sign-in by emailed link (decision 0084): a signed-out visitor chooses the e-book, gives only an email on
 * the login page, opens the link from the captured mail (a scanner's visit first changes nothing), presses
 * "Sign in", and the purchase resumes to payment; the new account never had a password.
 */
test('a signed-out buyer pays after signing in by emailed link, with no password ever set', async ({ page, request }) => {
  const email = `linkbuyer_${Date.now().toString(36)}@example.com`;

  await page.goto('/');
  const purchase = page.locator('#purchase');
  await purchase.scrollIntoViewIfNeeded();
  await purchase.getByRole('button', { name: 'Buy E-Book' }).click();
  await expect(page).toHaveURL(/\/login\?returnTo=purchase$/);

  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  const form = page.getByRole('form', { name: 'Email me a sign-in link' });
  await expect(form.getByText('No password needed. New here? Your email is enough: the link creates your account.')).toBeVisible();
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send Sign-In Link' }).click();
  const sent = page.getByTestId('login-link-sent');
  await expect(sent).toContainText('Check Your Email');
  await expect(sent).toContainText(
    'Check your email: if we can sign you in with that address, a link is on its way. It is valid for 15 minutes.',
  );

  const mail = await waitForMail(email, /login-link\?token=/);
  expect(mail.raw).toContain('Your sign-in link for What We Owe the Dead');
  const found = mail.raw.match(/https?:\/\/[^\s"<>]+\/login-link\?token=[\w-]+&returnTo=purchase/);
  expect(found).not.toBeNull();
  const link = new URL(found![0]);
  const target = `${link.pathname}${link.search}`;

  // A mail scanner follows the link first: it gets the page, and nobody is signed in by it.
  const scanned = await request.get(target);
  expect(scanned.status()).toBe(200);
  expect((await (await request.get('/api/users/check-auth')).json()).isAuthenticated).toBe(false);

  await page.goto(target);
  await expect(page.getByText('Press the button to sign in with the link from your email. It works once.')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Login Successful' }).first()).toBeVisible();

  // The purchase resumes on its own: checkout, then the hosted (local) payment page.
  await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Pay £9.99' }).click();
  await expect(page).toHaveURL(/\/profile#library$/);
  const library = page.getByRole('region', { name: /Your Library/ }).or(page.locator('section[aria-labelledby="library-title"]'));
  await expect(library.getByText('2 formats purchased')).toBeVisible();

  // The account has no password: Account Details offers to set one, not to change it.
  await page.getByRole('tab', { name: 'Account Details' }).click();
  await expect(page.getByRole('button', { name: 'Set Password' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change Password' })).toHaveCount(0);

  // The link was used once; pressing it again from a fresh page is refused.
  await page.goto(target);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    page.getByText('This sign-in link is invalid, has expired or was already used. Please ask for a new one.'),
  ).toBeVisible();
});
