import { type Browser, expect, type Page } from '@playwright/test';
import { ADMIN, csrfToken, postJson, waitForMail, test } from './support';

/**
 * Review copies (decision 0099), issue 31's journey: the author creates a campaign with the admin form; a new
 * reader applies on /review-copies/{slug} with no account; the author approves; the reader signs in with the
 * link from the approval mail, finds the copy in the library and opens it in the reading room; a reminder
 * goes out, the reader posts a review link from the library, and the next "Send reminders now" sends
 * nothing. The campaign is closed at the end, so the other journeys see the site as seeded.
 */
async function signedInAdmin(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await postJson(page.request, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
  return page;
}

/** A datetime-local value in the browser's own zone, `hours` from now. */
const localInput = (page: Page, hours: number) =>
  page.evaluate((h) => {
    const d = new Date(Date.now() + h * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }, hours);

test('a reader applies for a review copy, is approved, reads it, posts a review link and stops getting reminders', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const id = Date.now().toString(36);
  const slug = `early-readers-${id}`;
  const reader = { name: `Rowan ${id}`, email: `reviewer_${id}@example.com` };
  const reviewUrl = `https://books.example.com/reviews/${id}`;
  const admin = await signedInAdmin(browser);
  const featured = (await (await admin.request.get('/api/books/featured')).json()) as { id: number; title: string };
  let campaignId: number | null = null;

  try {
    // The author creates the campaign with the form on the admin page.
    await admin.goto('/admin/review-copies');
    await admin.getByRole('button', { name: 'New campaign' }).click();
    const form = admin.getByRole('form', { name: 'New campaign' });
    await form.getByLabel('Book').selectOption({ label: featured.title });
    await form.getByLabel('Format').selectOption('ebook');
    await form.getByLabel('Address: /review-copies/…').fill(slug);
    await form.getByLabel('Opens').fill(await localInput(admin, -1));
    await form.getByLabel('Closes').fill(await localInput(admin, 24 * 30));
    await form.getByLabel('Copies', { exact: true }).fill('5');
    await form.getByLabel('Remind every (days)').fill('3');
    await form.getByLabel('Question to applicants').fill('Which thriller did you review last?');
    await form.getByLabel('Approved by hand').check();
    await form.getByRole('button', { name: 'Create Campaign' }).click();
    await expect(admin.getByRole('status').filter({ hasText: `Applications are taken at /review-copies/${slug}.` }).first()).toBeVisible();
    const campaigns = (await (await admin.request.get('/api/admin/review-copies')).json()) as Array<{ id: number; slug: string }>;
    campaignId = campaigns.find((c) => c.slug === slug)?.id ?? null;
    expect(campaignId).not.toBeNull();
    const card = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: `${featured.title} (E-Book)` }) }).filter({ hasText: `/review-copies/${slug}` });
    await expect(card.getByText('Open', { exact: true })).toBeVisible();
    await expect(card.getByText('0 of 5 copies given · 0 waiting · 0 reviewed · 0 withdrawn')).toBeVisible();

    // A reader with no account applies.
    await page.goto(`/review-copies/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name: featured.title })).toBeVisible();
    const apply = page.getByRole('form', { name: 'Apply for a review copy' });
    await apply.getByLabel('Your name').fill(reader.name);
    await apply.getByLabel('Email').fill(reader.email);
    await apply.getByLabel('Where do you review?').fill('My book blog and Goodreads');
    await apply.getByLabel('Which thriller did you review last?').fill('A lighthouse mystery set in Whitby.');
    await apply.getByLabel('Profile link 1').fill('https://www.goodreads.com/rowan');
    await apply.getByRole('button', { name: 'Apply for a review copy' }).click();
    await expect(page.getByText('Thank you for applying! We will email you when the author has decided.')).toBeVisible();

    // The author approves the application.
    await admin.reload();
    await card.getByRole('button', { name: `Approve ${reader.name}` }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Done' }).first()).toBeVisible();
    await expect(card.getByText('1 of 5 copies given · 0 waiting · 0 reviewed · 0 withdrawn')).toBeVisible();

    // The approval mail signs the reader in; the copy is in the library and opens in the reading room.
    const approval = await waitForMail(reader.email, /login-link\?token=/);
    expect(approval.raw).toContain(`Your review copy of ${featured.title}`);
    const link = new URL(approval.raw.match(/https?:\/\/[^\s"<>]+\/login-link\?token=[\w-]+/)![0]);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Login Successful' }).first()).toBeVisible();
    await page.goto('/profile#library');
    const library = page.locator('section[aria-labelledby="library-title"]');
    await expect(library.getByRole('heading', { level: 3, name: featured.title })).toBeVisible();
    await library.getByRole('link', { name: 'Read E-Book' }).click();
    await expect(page).toHaveURL(`/read/${featured.id}/ebook`);
    await expect(page.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });

    // Until a link is posted, the author's reminder reaches the reader.
    await card.getByRole('button', { name: 'Send reminders now' }).click();
    await expect(admin.getByRole('status').filter({ hasText: '1 reminder sent.' }).first()).toBeVisible();
    const reminder = await waitForMail(reader.email, /A reminder about your review of/);
    expect(reminder.raw).toContain(`/review-copies/${slug}`);

    // The reader posts the review link from the library.
    await page.goto('/profile#library');
    await library.getByRole('link', { name: 'Post your review' }).click();
    await expect(page).toHaveURL(`/review-copies/${slug}`);
    const post = page.getByRole('form', { name: 'Post your review' });
    await post.getByLabel('Link to your review').fill(reviewUrl);
    await post.getByRole('button', { name: 'Post link' }).click();
    await expect(page.getByText('Thank you! Your review link is saved. We will not send you any more reminders.')).toBeVisible();
    await page.getByRole('link', { name: 'My Library' }).click();
    await expect(library.getByText('Review posted')).toBeVisible();
    await expect(library.getByRole('link', { name: 'Post your review' })).toHaveCount(0);

    // No more reminders: the author sees the review, and "Send reminders now" sends nothing.
    await admin.reload();
    await expect(card.getByText(`Review: ${reviewUrl}`)).toBeVisible();
    await expect(card.getByText('1 of 5 copies given · 0 waiting · 1 reviewed · 0 withdrawn')).toBeVisible();
    await card.getByRole('button', { name: 'Send reminders now' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Every approved reader has posted a review: no reminder sent.' }).first()).toBeVisible();
  } finally {
    if (campaignId !== null) await close(admin, campaignId);
    await admin.context().close();
  }
});

/** Closes the campaign now: it takes no more applications, so the other journeys see the site as seeded. */
async function close(admin: Page, campaignId: number) {
  const campaigns = (await (await admin.request.get('/api/admin/review-copies')).json()) as Array<Record<string, unknown> & { id: number }>;
  const c = campaigns.find((x) => x.id === campaignId)!;
  const closed = await admin.request.put(`/api/admin/review-copies/${campaignId}`, {
    headers: { 'X-CSRF-Token': await csrfToken(admin.request) },
    data: { bookId: c.bookId, format: c.format, slug: c.slug, opensAt: c.opensAt, closesAt: new Date().toISOString(), copies: c.copies, question: c.question, autoApprove: c.autoApprove, reminderDays: c.reminderDays },
  });
  expect(closed.ok()).toBe(true);
  const after = (await closed.json()) as Array<{ id: number; state: string }>;
  expect(after.find((x) => x.id === campaignId)?.state).toBe('closed');
}
