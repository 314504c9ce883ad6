import { expect, type Page } from '@playwright/test';
import { ADMIN, expectToast, uniqueReader, waitForMail, fillRegisterForm, test } from './support';

const loginForm = (page: Page) => page.getByRole('form', { name: 'Sign in' });

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await loginForm(page).getByLabel('Username or Email').fill(username);
  await loginForm(page).getByLabel('Password', { exact: true }).fill(password);
  await loginForm(page).getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Login Successful');
}

async function signOutFromProfile(page: Page) {
  await page.getByRole('navigation', { name: 'Back to the book' }).getByRole('button', { name: 'Logout' }).click();
  await expectToast(page, 'Logged out successfully');
  await expect(page).toHaveURL(/\/$/);
}

test('a reader registers, signs out and in, resets a forgotten password and changes it from the profile', async ({ page }) => {
  const reader = uniqueReader();

  // Register: the account starts signed in and lands on the profile.
  await page.goto('/login');
  const register = await fillRegisterForm(page, reader, { submit: false });
  await expect(register.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Very Strong');
  await register.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: reader.displayName })).toBeVisible();

  // Sign out, then back in with the email address (in another case).
  await signOutFromProfile(page);
  await signIn(page, reader.email.toUpperCase(), reader.password);
  await expect(page).toHaveURL(/\/profile$/);
  await signOutFromProfile(page);

  // Forgot password: the confirmation shows, and the mail arrives over SMTP.
  await page.goto('/login');
  await loginForm(page).getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(reader.email);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  const mail = await waitForMail(reader.email, /reset-password\?token=/);
  const link = mail.raw.match(/http:\/\/\S+\/reset-password\?token=[\w-]+&email=[^\s"<>]+/)![0];

  // Open the link: the page is served without a referrer, validates, then takes the new password.
  const response = await page.goto(link);
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByText('Validating your reset link...')).toBeVisible();
  const newPassword = 'Lantern-Harbour-77!';
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Complete' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 8000 });

  // The link worked once: opened again, the page says so at once, before anything is typed.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
  await expectToast(page, 'Invalid Reset Link');
  await expect(page.getByLabel('New Password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Request New Link' })).toHaveAttribute('href', '/forgot-password');

  // Sign in with the new password, then change it from the profile with a generated suggestion.
  await signIn(page, reader.username, newPassword);
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.getByLabel('Current Password').fill(newPassword);
  await dialog.getByRole('button', { name: 'Generate Strong Password' }).click();
  await expect(dialog.getByTestId('password-suggestion')).toBeVisible();
  const generated = await dialog.getByLabel('New Password').inputValue();
  expect(generated).toHaveLength(20);
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expectToast(page, 'Success');
  await expect(dialog).toBeHidden();
  await waitForMail(reader.email, /password was changed/);

  // Still signed in here; the generated password is now the one that works.
  await expect(page.getByRole('heading', { name: reader.displayName })).toBeVisible();
  await signOutFromProfile(page);
  await signIn(page, reader.username, generated);
  await expect(page).toHaveURL(/\/profile$/);
});

test('the operator’s admin signs in from Admin Access and is sent to /admin', async ({ page }) => {
  await page.goto('/login?returnTo=admin');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await loginForm(page).getByLabel('Username or Email').fill(ADMIN.username);
  await loginForm(page).getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await loginForm(page).getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Login Successful');
  await expect(page).toHaveURL(/\/admin$/);
});

test('a wrong password shows "Login Failed" and stays on the login page', async ({ page }) => {
  await page.goto('/login');
  await loginForm(page).getByLabel('Username or Email').fill('nobody-at-all');
  await loginForm(page).getByLabel('Password', { exact: true }).fill('Wrong-Password-1');
  await loginForm(page).getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Login Failed');
  await expect(page).toHaveURL(/\/login$/);
});
