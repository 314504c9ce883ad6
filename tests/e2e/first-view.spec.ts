/**
 * First view: the public pages arrive rendered on the server. Without JavaScript a reader gets the hero,
 * the synopsis, the prices and a whole post, and can follow the links; with it, hydration takes over the
 * same HTML without a React warning and without changing what is on the screen.
 */
import { expect, type ConsoleMessage, type Page } from '@playwright/test';
import { DEFAULT_PRICES, formatPrice } from '../../src/shared/constants';
import { blogPosts, featuredBook } from '../../src/server/db/seed/content';
import { layoutSettled, pageLive, test } from './support';

const POST_SLUG = 'on-writing-brothers';
const post = blogPosts.find((p) => p.slug === POST_SLUG)!;
const firstParagraph = /<p>([^<]{30,})/.exec(post.content)![1];

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page shows the hero title, synopsis and every price', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: featuredBook.title })).toBeVisible();
    await expect(page.locator('#hero-title')).toHaveText(featuredBook.title);
    const synopsis = page.locator('#synopsis');
    await expect(synopsis.getByRole('heading', { name: 'Synopsis' })).toBeVisible();
    await expect(synopsis).toContainText(featuredBook.synopsis[0].slice(0, 80));
    const purchase = page.locator('#purchase');
    for (const price of Object.values(DEFAULT_PRICES)) await expect(purchase).toContainText(formatPrice(price));
    // The hero's actions are links to their sections.
    await page.getByRole('link', { name: 'Get Your Copy' }).click();
    await expect(page).toHaveURL(/\/#purchase$/);
  });

  test('the blog lists the posts and a post reads in full, reached by its link', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    await page.getByRole('link', { name: post.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/blog/${POST_SLUG}$`));
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    await expect(page.getByTestId('post-content')).toContainText(firstParagraph.slice(0, 60));
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test('an unknown address gets the not-found page with status 404', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await page.getByRole('link', { name: 'Return Home' }).click();
    await expect(page.locator('#hero-title')).toHaveText(featuredBook.title);
  });
});

/** What a reader sees in the page's main region and its layout, for comparing before and after hydration. */
async function snapshot(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main')!;
    const headings = [...main.querySelectorAll('h1, h2, h3')].map((h) => {
      const box = h.getBoundingClientRect();
      return `${h.textContent?.trim()}@${Math.round(box.top + window.scrollY)}`;
    });
    return { text: main.innerText, headings, height: document.documentElement.scrollHeight };
  });
}

const HYDRATION_NOISE = /hydrat|did not match|Minified React error|server rendered|#418|#419|#423|#425/i;

for (const path of ['/', '/blog', `/blog/${POST_SLUG}`]) {
  test(`hydrating ${path} logs no React warning and changes nothing on screen`, async ({ browser, page }) => {
    // The server's page as it is before any script runs.
    const bare = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
    const serverPage = await bare.newPage();
    await serverPage.goto(path);
    await serverPage.evaluate(() => document.fonts.ready);
    const before = await snapshot(serverPage);
    await bare.close();

    const messages: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
    };
    page.on('console', onConsole);
    page.on('pageerror', (error) => messages.push(error.message));
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(path);
    await pageLive(page);
    await layoutSettled(page);
    await page.evaluate(() => document.fonts.ready);
    // Hydrated: a client-side navigation works (the header's Blog link does not reload the page).
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const after = await snapshot(page);

    expect(messages.filter((m) => HYDRATION_NOISE.test(m))).toEqual([]);
    expect(messages).toEqual([]);
    expect(after.text).toBe(before.text);
    expect(after.headings).toEqual(before.headings);
    expect(after.height).toBe(before.height);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });
}

test('arriving on a section of the home page, the footer and the page height stay as the server drew them', async ({ page }) => {
  // The browser's #section is read only after hydration, which redraws the layout: the footer, still
  // waiting for its code, must keep the server's HTML.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/#newsletter-section');
  const serverHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  await pageLive(page);
  await expect(page.locator('#newsletter-section')).toHaveAttribute('data-live', '');
  await layoutSettled(page);
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Hardcover', exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(serverHeight);
});

test('a page scrolled before it came alive keeps its place', async ({ page }) => {
  await page.goto('/blog');
  await page.evaluate(() => window.scrollTo(0, 400));
  await pageLive(page);
  expect(await page.evaluate(() => window.scrollY)).toBe(400);
});
