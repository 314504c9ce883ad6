import path from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import { ADMIN, expectToast, postJson, waitForMail, test } from './support';

/**
 * Confirmed subscriptions (issue 28 point 1, decision 0069), at a phone's and a laptop's width: a visitor
 * subscribes on the home page, the welcome mail carries "Confirm your subscription"; opening the link
 * shows a button and confirms nothing (the author's list still says Unconfirmed); the button confirms.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage: false });
}

/** The author's API session, to read the subscriber list as the Subscribers page does. */
async function authorApi(browser: Browser) {
  const context = await browser.newContext();
  await postJson(context.request, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  return context;
}

async function stateOf(browser: Browser, email: string) {
  const author = await authorApi(browser);
  try {
    const search = new URLSearchParams({ q: email });
    const page = (await (await author.request.get(`/api/admin/subscribers?${search}`)).json()) as {
      items: Array<{ email: string; state: string; source: string }>;
    };
    return page.items.find((s) => s.email === email);
  } finally {
    await author.close();
  }
}

for (const width of [390, 1366]) {
  test(`at ${width} px: subscribing sends a confirmation link that confirms only when its button is pressed`, async ({ page, browser }) => {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    const email = `confirm_${width}_${Date.now().toString(36)}@example.com`;
    await page.goto('/#newsletter-section');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expectToast(page, 'Subscribed Successfully');
    await expect(page.getByLabel('Email address')).toHaveValue('');

    const mail = await waitForMail(email, /Confirm your subscription/);
    const link = /Confirm your subscription: (https?:\/\/\S+)/.exec(mail.raw)?.[1];
    expect(link).toMatch(/\/newsletter\/confirm\?token=[\w-]+$/);

    // Opening the link, as the reader (or a mail scanner) does, only shows the button.
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
    const button = page.getByRole('button', { name: 'Confirm your subscription' });
    await expect(button).toBeVisible();
    await shot(page, 'confirm-page');
    expect(await stateOf(browser, email)).toMatchObject({ state: 'unconfirmed', source: 'home' });

    await button.click();
    await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();
    await expect(page.getByText('Your subscription to the Thriller Circle is confirmed. Thank you!')).toBeVisible();
    await shot(page, 'confirm-done');
    expect(await stateOf(browser, email)).toMatchObject({ state: 'confirmed', source: 'home' });

    // Opening the old link again and pressing again is harmless.
    await page.goto(link!);
    await page.getByRole('button', { name: 'Confirm your subscription' }).click();
    await expect(page.getByRole('heading', { name: 'Already confirmed' })).toBeVisible();

    // A broken link says so on the page.
    await page.goto('/newsletter/confirm?token=not-a-real-token');
    await page.getByRole('button', { name: 'Confirm your subscription' }).click();
    await expect(page.getByRole('alert')).toContainText('This confirmation link is not valid.');
    await shot(page, 'confirm-invalid');

    // The author sees the state and source in words on the Subscribers page.
    await page.goto('/login?returnTo=admin');
    await page.getByLabel(/username or email/i).fill(ADMIN.username);
    await page.getByLabel(/^password/i).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto('/admin/subscribers');
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row.getByRole('cell', { name: 'Confirmed', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Home page', exact: true })).toBeVisible();
    await shot(page, 'admin-subscribers');
  });
}
