import { expect } from '@playwright/test';
import { ADMIN, expectToast, nextPage, readerWith, test } from './support';

/**
 * Verified reviews (decision 0085): a buyer reads the e-book to its last page, is asked "Enjoyed it?", rates
 * and reviews it; the author approves and answers it in the admin area; the home page then shows it as a
 * verified reader's, beside the early-reader quotes, and its structured data counts it.
 */

const REVIEW = 'Read it in two sittings. The brothers will stay with me for a long time.';

test('a buyer finishes the book, leaves a review, the author approves it and it appears on the home page', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const { reader, bookId } = await readerWith(page.request, ['ebook'], { askForReview: true });

  // --- the reader reaches the last page ------------------------------------------------------------
  await page.goto(`/read/${bookId}/ebook`);
  await expect(page.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });
  const prompt = page.getByRole('dialog', { name: 'Enjoyed it?' });
  for (let i = 0; i < 200 && !(await prompt.isVisible()); i += 1) {
    await nextPage(page, prompt);
  }
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('You have reached the end of What We Owe the Dead.');

  // --- rates and reviews it ------------------------------------------------------------------------
  await prompt.getByRole('button', { name: 'Post review' }).click();
  await expect(prompt.getByText('Please choose a rating from 1 to 5 stars')).toBeVisible();
  await prompt.getByRole('radio', { name: '5 stars' }).check({ force: true });
  await prompt.getByLabel('Your review').fill(REVIEW);
  await prompt.getByRole('button', { name: 'Post review' }).click();
  await expect(prompt.getByRole('status')).toHaveText('Thank you! Your review will appear once the author has read it.');
  await prompt.getByRole('button', { name: 'Done' }).click();
  await expect(prompt).toBeHidden();

  // Not on the home page until the author approves it.
  await page.goto('/');
  await expect(page.locator('#reviews')).toBeVisible();
  await expect(page.getByText(REVIEW)).toHaveCount(0);

  // --- the author approves and answers it ----------------------------------------------------------
  const authorContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const author = await authorContext.newPage();
  await author.goto('/login?returnTo=admin');
  await author.getByLabel(/username or email/i).fill(ADMIN.username);
  await author.getByLabel(/^password/i).fill(ADMIN.password);
  await author.getByRole('button', { name: 'Sign In' }).click();
  await expect(author).toHaveURL(/\/admin$/);
  await author.getByRole('main').getByRole('link', { name: /^Reviews/ }).click();
  await expect(author).toHaveURL(/\/admin\/reviews$/);
  const card = author.locator('li').filter({ hasText: REVIEW });
  await expect(card).toContainText(reader.displayName);
  await expect(card).toContainText('5 out of 5');
  await expect(card).toContainText('Waiting');
  await card.getByLabel('Your answer').fill('Thank you for reading it so closely.');
  await card.getByRole('button', { name: 'Save answer' }).click();
  await expectToast(author, 'Answer saved');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expectToast(author, 'Review approved');
  await author.getByRole('button', { name: 'Approved', exact: true }).click();
  await expect(author.locator('li').filter({ hasText: REVIEW })).toContainText('Approved');
  await authorContext.close();

  // --- the home page shows it as a verified reader's, beside the early-reader quotes ----------------
  await page.goto('/');
  const reviews = page.locator('#reviews');
  await reviews.scrollIntoViewIfNeeded();
  await expect(reviews.getByRole('heading', { name: 'What Readers Are Saying' })).toBeVisible();
  await expect(reviews.getByText('Early-reader rating')).toBeVisible();
  const verified = reviews.getByRole('region', { name: 'From verified readers' });
  await expect(verified).toContainText('5.0 out of 5 from 1 verified review');
  const item = verified.locator('li').filter({ hasText: REVIEW });
  await expect(item).toContainText('Verified reader');
  await expect(item).toContainText(reader.displayName);
  await expect(item).toContainText('The author answers');
  await expect(item).toContainText('Thank you for reading it so closely.');

  // The structured data's rating counts the verified review only.
  const html = await (await page.request.get('/')).text();
  const [book] = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
  expect(book.aggregateRating).toMatchObject({ ratingValue: 5, ratingCount: 1, reviewCount: 1 });
  expect(book.review).toEqual([expect.objectContaining({ reviewBody: REVIEW, author: { '@type': 'Person', name: reader.displayName } })]);

  // The library opens the review again, with the author's verdict and answer.
  await page.goto('/profile#library');
  const library = page.locator('section[aria-labelledby="library-title"]');
  await library.getByRole('button', { name: 'Review this book' }).click();
  const own = page.getByRole('dialog', { name: 'Your review of What We Owe the Dead' });
  await expect(own.getByLabel('Your review')).toHaveValue(REVIEW);
  await expect(own).toContainText('Shown on the home page as a verified reader’s review.');
  await expect(own).toContainText('Thank you for reading it so closely.');
  await own.getByRole('button', { name: 'Close' }).click();

  // Asked once: back at the last page, the reader is not asked again. The prompt asks the server once the
  // end is reached; its answer is what would open it.
  const answered = page.waitForResponse((r) => r.url().endsWith(`/api/books/${bookId}/my-review`) && r.request().method() === 'GET');
  await page.goto(`/read/${bookId}/ebook`);
  await expect(page.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });
  expect(await (await answered).json()).toMatchObject({ askAtEnd: false });
  await expect(page.getByRole('dialog', { name: 'Enjoyed it?' })).toHaveCount(0);
});

test('the audiobook player asks "Enjoyed it?" at the end, and "Not now" is remembered', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const { bookId } = await readerWith(page.request, ['audiobook'], { askForReview: true });

  // Plays the last seconds; answers the prompt's request to the server, made once the end is reached (the
  // page has only just opened when it is awaited, so no earlier request can answer it).
  const listenToTheEnd = async () => {
    await page.goto(`/listen/${bookId}`);
    const asked = page.waitForResponse((r) => r.url().endsWith(`/api/books/${bookId}/my-review`) && r.request().method() === 'GET');
    const audio = page.locator('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 15_000 }).toBeGreaterThan(0);
    const duration = await audio.evaluate((a: HTMLAudioElement) => a.duration);
    await page.getByLabel('Position').fill(String(Math.max(0, Math.floor(duration) - 4)));
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.ended || a.currentTime >= a.duration - 1), { timeout: 20_000 }).toBe(true);
    return { asked };
  };

  const first = await listenToTheEnd();
  expect(await (await first.asked).json()).toMatchObject({ askAtEnd: true });
  const prompt = page.getByRole('dialog', { name: 'Enjoyed it?' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Post review' })).toBeVisible();
  // The dialog closes at once; the answer is kept once the server has been told.
  const told = page.waitForResponse((r) => r.url().endsWith(`/api/books/${bookId}/review-prompt/dismiss`) && r.request().method() === 'POST');
  await prompt.getByRole('button', { name: 'Not now' }).click();
  await expect(prompt).toBeHidden();
  expect((await told).status()).toBe(200);
  const mine = await (await page.request.get(`/api/books/${bookId}/my-review`)).json();
  expect(mine).toMatchObject({ canReview: true, askAtEnd: false, review: null });

  // Heard to the end again: not asked again, once the server's answer, which would open it, is in.
  const again = await listenToTheEnd();
  expect(await (await again.asked).json()).toMatchObject({ askAtEnd: false });
  await expect(page.getByRole('dialog', { name: 'Enjoyed it?' })).toHaveCount(0);
});
