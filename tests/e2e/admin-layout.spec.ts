import { expect, request as playwrightRequest, type Page } from '@playwright/test';
import { ADMIN, uniqueReader, csrfToken, layoutSettled, registerByApi, test } from './support';

/**
 * The admin area on a phone never scrolls sideways as a page (tables scroll inside their own frame,
 * with a visible hint), and the header stays on one line at 1024 px.
 */
const ADMIN_PAGES = [
  '/admin',
  '/dashboard',
  '/admin/orders',
  '/admin/discounts',
  '/admin/trace',
  '/admin/system',
  '/admin/posts',
  '/admin/posts/new',
  '/admin/files',
  '/admin/messages',
  '/admin/subscribers',
  '/admin/users',
  '/admin/settings',
  '/admin/books/create',
  '/admin/books/edit/1',
];

async function signInAsAdmin(page: Page) {
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** A paid order, so the orders table has a row to be wide with. */
async function placeOrder(baseURL: string) {
  const reader = uniqueReader();
  const api = await playwrightRequest.newContext({ baseURL });
  await registerByApi(api, reader);
  const featured = await (await api.get('/api/books/featured')).json();
  const checkout = await api.post('/api/checkout', { data: { bookId: featured.id, format: 'hardcover' }, headers: { 'X-CSRF-Token': await csrfToken(api) } });
  expect(checkout.ok()).toBe(true);
  const sessionId = ((await checkout.json()).url as string).split('/').pop()!;
  const shippingAddress = { name: 'Ada Reader', line1: '1 Harbour Street', city: 'Whitby', postalCode: 'YO21 3PU', country: 'United Kingdom' };
  const paid = await api.post(`/api/checkout/sessions/${sessionId}/pay`, { data: { shippingAddress }, headers: { 'X-CSRF-Token': await csrfToken(api) } });
  expect(paid.ok()).toBe(true);
  await api.dispose();
}

test('every admin page fits a 390 px screen; wide tables scroll in their own frame with a hint', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  await placeOrder(baseURL!);
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signInAsAdmin(page);
  // A discount code, so the codes table has a row to be wide with.
  const code = `WIDE${Date.now().toString(36).toUpperCase()}`;
  const created = await page.request.post('/api/admin/discounts', {
    data: { code, percentOff: 10, formats: ['ebook', 'audiobook'], maxRedemptions: 50 },
    headers: { 'X-CSRF-Token': await csrfToken(page.request) },
  });
  expect(created.status()).toBe(201);
  const overflowing: string[] = [];
  for (const path of ADMIN_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await layoutSettled(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) overflowing.push(`${path}: ${width} px wide`);
  }
  expect(overflowing).toEqual([]);

  await page.goto('/admin/orders');
  await expect(page.getByText('Scroll sideways to see every column')).toBeVisible();
  const frame = page.getByRole('region', { name: 'Orders, newest first' });
  await expect(frame).toBeVisible();
  const sizes = await frame.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  // The frame takes keyboard focus (so arrow keys scroll it); scrolled to its end it shows the last column.
  expect(await frame.getAttribute('tabindex')).toBe('0');
  await frame.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  // Scroll the page (not the frame) down to the first print order: other rows, such as the PDF edition
  // included with an e-book, may stand above it.
  const markShipped = page.getByRole('button', { name: /Mark order .* shipped/ }).first();
  await markShipped.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
  await expect(markShipped).toBeInViewport();
  await context.close();
});

test('the header stays on one line at 1024 px, for the author on the home page and in the admin area', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await signInAsAdmin(page);
  for (const path of ['/', '/admin', '/blog']) {
    await page.goto(path);
    // The header as the signed-in author sees it (the sign-in state is asked for once the page is live),
    // in its own fonts.
    await expect(page.getByRole('banner').getByRole('link', { name: 'My Profile' })).toBeVisible();
    await layoutSettled(page);
    const header = await page.evaluate(() => {
      const bar = document.querySelector('header')!;
      const lines = [...bar.querySelectorAll('a, button')]
        .filter((el) => el.getBoundingClientRect().width > 0)
        .filter((el) => el.getBoundingClientRect().height > 44)
        .map((el) => (el.textContent ?? '').trim());
      return { height: bar.getBoundingClientRect().height, tall: lines };
    });
    expect({ path, ...header }).toEqual({ path, height: 65, tall: [] });
  }
  await context.close();
});
