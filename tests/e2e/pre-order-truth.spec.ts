import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ADMIN, csrfToken, expectToast, postJson, readerWith, TEST_ADDRESS, test } from './support';

/**
 * Pre-orders tell the truth (issue 25 point 5), on a phone and on a laptop: before the release the payment
 * page, its toast, the library, "Your Orders" (the hardcover's status too) and the reading room all say
 * "Pre-order, available on {date}"; once the book is out, the upcoming block says "Out now" and the e-book,
 * released before its file was uploaded, reads "Not ready yet" instead of offering a download.
 */
const WIDTHS = [390, 1366] as const;
const SHOTS = process.env.E2E_SCREENSHOTS_DIR;
const DAY = 24 * 3600_000;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

/** The release date as every screen writes it. */
const spoken = (date: Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(date);

/** The author's API session, which sets the upcoming book's release date and prices. */
async function authorApi(browser: Browser) {
  const context = await browser.newContext();
  await postJson(context.request, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  return context;
}

async function setRelease(api: APIRequestContext, bookId: number, releaseAt: Date) {
  const res = await api.put(`/api/admin/books/${bookId}/pre-order`, {
    data: { releaseAt: releaseAt.toISOString(), prices: { hardcover: 2599, paperback: null, ebook: 1299, audiobook: null } },
    headers: { 'X-CSRF-Token': await csrfToken(api) },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

for (const width of WIDTHS) {
  test(`at ${width} px: every screen says "Pre-order, available on {date}" until the release, then the truth about the file`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    const author = await authorApi(browser);
    const books = (await (await page.request.get('/api/books')).json()) as Array<{ id: number; featured: boolean }>;
    const upcomingId = books.find((b) => !b.featured)!.id;
    const releaseAt = new Date(Date.now() + 21 * DAY);
    await setRelease(author.request, upcomingId, releaseAt);
    const notice = `Pre-order, available on ${spoken(releaseAt)}`;

    // A reader pre-orders the e-book on the payment page (then the hardcover, through the API).
    await readerWith(page.request, []);
    await page.goto('/#upcoming');
    const area = page.getByRole('region', { name: /Pre-order: out on/ });
    await area.getByRole('button', { name: 'Pre-order E-Book' }).click();
    await expect(page).toHaveURL(/\/pay\/[\w-]+$/, { timeout: 20_000 });
    await expect(page.getByText(notice)).toBeVisible();
    await expect(page.getByText('In your library on release day')).toBeVisible();
    await shot(page, `pre-order-pay-${width}`);
    await page.getByRole('button', { name: 'Pay £12.99' }).click();
    await expect(page).toHaveURL(/\/profile#library$/);
    await expectToast(page, 'Payment successful');
    await expect(page.getByRole('status').filter({ hasText: `${notice}. Your E-Book will be in your library on release day.` }).first()).toBeVisible();
    const { url } = await postJson<{ url: string }>(page.request, '/api/checkout', { bookId: upcomingId, format: 'hardcover' });
    await postJson(page.request, `/api/checkout/sessions/${url.split('/').pop()}/pay`, { shippingAddress: TEST_ADDRESS });
    await page.reload();

    // The library row and both orders say it; the hardcover is not "Preparing to ship" yet.
    const library = page.locator('section[aria-labelledby="library-title"]');
    const ebookRow = library.locator('li li').filter({ hasText: 'E-Book' });
    await expect(ebookRow.getByText(notice)).toBeVisible();
    await expect(library.getByRole('button', { name: /Download/ })).toHaveCount(0);
    const orders = page.locator('section[aria-labelledby="orders-title"]');
    await expect(orders.locator('li').filter({ hasText: 'Hardcover' }).getByText(notice)).toBeVisible();
    await expect(orders.locator('li').filter({ hasText: 'E-Book' }).getByText(notice)).toBeVisible();
    await expect(orders.getByText('Preparing to ship')).toHaveCount(0);
    await orders.scrollIntoViewIfNeeded();
    await shot(page, `pre-order-orders-${width}`);

    // The reading room says when, not "Not in your library".
    await page.goto(`/read/${upcomingId}/ebook`);
    await expect(page.getByRole('heading', { name: notice })).toBeVisible();
    await expect(page.getByText('Not in your library')).toHaveCount(0);
    await shot(page, `pre-order-reader-${width}`);

    // The author releases the book today, with no e-book file uploaded yet.
    await setRelease(author.request, upcomingId, new Date(Date.now() - 1000));
    await expect(async () => {
      const rows = (await (await page.request.get('/api/library/books')).json()) as Array<{ bookId: number; availableAt: string | null }>;
      expect(rows.find((r) => r.bookId === upcomingId)?.availableAt).toBeNull();
    }).toPass({ timeout: 20_000 });
    await page.goto('/profile#library');
    const row = ebookRow.filter({ hasText: 'Not ready yet' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('We will email you the moment this file is in your library.');
    await expect(row.getByRole('button', { name: /Download/ })).toHaveCount(0);
    await expect(page.getByText(notice)).toHaveCount(0);
    await shot(page, `released-not-ready-${width}`);
    await page.goto('/#upcoming');
    await expect(page.locator('#upcoming').getByText('Out now', { exact: true })).toBeVisible();
    await expect(page.locator('#upcoming').getByText('Coming soon')).toHaveCount(0);

    // The journeys after this one find the upcoming book on pre-order again.
    await setRelease(author.request, upcomingId, new Date(Date.now() + 30 * DAY));
    await author.close();
  });
}
