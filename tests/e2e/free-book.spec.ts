import { expect } from '@playwright/test';
import { ADMIN, csrfToken, postJson, waitForMail, test } from './support';

/**
 * A free book for subscribers (decision 0097): the author offers the featured book's e-book through the admin
 * API; a new visitor gives only an email on /free/{slug}, opens the link from the captured mail (a scanner's
 * visit first changes nothing), presses "Get my free book" and finds the book in their library. The offer is
 * removed at the end, so the other journeys see the site as seeded.
 */
test('a new visitor claims the free book with only an email, confirms from the mail and the library shows it', async ({ page, request }) => {
  const slug = `free-${Date.now().toString(36)}`;
  const email = `freereader_${Date.now().toString(36)}@example.com`;

  await postJson(request, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  const featured = (await (await request.get('/api/books/featured')).json()) as { id: number; title: string };
  const offer = await postJson<{ id: number }>(request, '/api/admin/free-books', {
    bookId: featured.id,
    format: 'ebook',
    slug,
    pitch: 'The first chapters, free for readers of the Thriller Circle.',
    active: true,
  });

  try {
    await page.goto(`/free/${slug}?source=e2e-journey`);
    await expect(page.getByRole('heading', { level: 1, name: featured.title })).toBeVisible();
    await expect(page.getByText('Free E-Book for the Thriller Circle')).toBeVisible();
    await expect(page.getByText('The first chapters, free for readers of the Thriller Circle.')).toBeVisible();
    await page.getByLabel('Where should we send it?').fill(email);
    await page.getByRole('button', { name: 'Send me the book' }).click();
    await expect(page.getByText('Check your email', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Check your email: we have sent you a link to confirm your address. Press it within 24 hours to get your book.'),
    ).toBeVisible();

    const mail = await waitForMail(email, /\/free\/[\w-]+\/confirm\?token=/);
    expect(mail.raw).toContain(`Confirm your subscription and get ${featured.title}`);
    const found = mail.raw.match(/https?:\/\/[^\s"<>]+\/free\/[\w-]+\/confirm\?token=[\w-]+/);
    expect(found).not.toBeNull();
    const link = new URL(found![0]);
    const target = `${link.pathname}${link.search}`;

    // A mail scanner follows the link first: it gets the page, and nobody is signed in by it.
    const scanned = await page.request.get(target);
    expect(scanned.status()).toBe(200);
    expect((await (await page.request.get('/api/users/check-auth')).json()).isAuthenticated).toBe(false);

    await page.goto(target);
    await page.getByRole('button', { name: 'Get my free book' }).click();
    await expect(page.getByRole('heading', { name: 'The book is yours' })).toBeVisible();
    await expect(page.getByText('Your free book is in your library. Welcome to the Thriller Circle!')).toBeVisible();
    await expect(page.getByRole('button', { name: `Send ${featured.title} to Kindle` })).toBeVisible();

    await page.getByRole('link', { name: 'Open your library' }).click();
    await expect(page).toHaveURL(/\/profile#library$/);
    await expect(page.getByRole('heading', { level: 3, name: featured.title })).toBeVisible();
    await expect(page.getByTestId('format-icon-ebook').first()).toBeVisible();

    // The author's figures count the claim under its source.
    const offers = (await (await request.get('/api/admin/free-books')).json()) as Array<{ id: number; sources: Array<{ source: string | null; claimed: number }> }>;
    expect(offers.find((o) => o.id === offer.id)?.sources).toEqual([expect.objectContaining({ source: 'e2e-journey', claimed: 1 })]);
  } finally {
    const removed = await request.delete(`/api/admin/free-books/${offer.id}`, { headers: { 'X-CSRF-Token': await csrfToken(request) } });
    expect(removed.ok()).toBe(true);
  }
});
