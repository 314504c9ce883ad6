import { expect, type APIRequestContext } from '@playwright/test';
import { ADMIN, csrfToken, postJson, test } from './support';

/**
 * The blog in pages (ADR 0067): a reader on a phone and on a desktop reads the newest twelve posts on
 * /blog, goes on to the older posts on page 2 and comes back, by the links at the bottom of the list and by
 * the browser's Back button. The server's own page 2 links its neighbours for crawlers.
 */

const ADDED = 10;
const created: number[] = [];

async function asAdmin(api: APIRequestContext) {
  await postJson(api, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
}

test.beforeAll(async ({ request }) => {
  // Twelve posts fill the first page: ten new ones with the seeded posts make two pages whatever ran before.
  await asAdmin(request);
  const stamp = Date.now().toString(36);
  for (let i = 1; i <= ADDED; i++) {
    const post = await postJson<{ id: number }>(request, '/api/admin/posts', {
      title: `Paging note ${String(i).padStart(2, '0')}`,
      slug: `paging-note-${stamp}-${i}`,
      excerpt: `Number ${i} of the notes that fill the first page of the blog.`,
      content: `<p>Paging note ${i}.</p>`,
      isPublished: true,
    });
    created.push(post.id);
  }
});

test.afterAll(async ({ request }) => {
  // Later journeys count the seeded posts on the first page: these leave the public blog again.
  await asAdmin(request);
  const token = await csrfToken(request);
  for (const id of created) {
    const res = await request.post(`/api/admin/posts/${id}/publish`, { data: { isPublished: false }, headers: { 'X-CSRF-Token': token } });
    expect(res.ok()).toBe(true);
  }
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test(`at ${viewport.width} px a reader walks from /blog to the older posts on page 2 and back`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const { totalPages, totalPosts } = await (await page.request.get('/api/blog/page/1')).json();
    expect(totalPages).toBeGreaterThanOrEqual(2);
    const page2 = await (await page.request.get('/api/blog/page/2')).json();
    const olderTitle: string = page2.posts[0].title;

    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    const list = page.getByRole('main').getByRole('listitem').filter({ has: page.getByRole('article') });
    await expect(list).toHaveCount(12);
    // The newest post leads the first page; the page-2 post is not on it.
    await expect(page.getByRole('link', { name: `Paging note ${String(ADDED).padStart(2, '0')}`, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: olderTitle, exact: true })).toHaveCount(0);
    const pages = page.getByRole('navigation', { name: 'Blog pages' });
    await expect(pages).toContainText(`Page 1 of ${totalPages}`);
    await expect(pages.getByRole('link', { name: 'Newer posts' })).toHaveCount(0);

    const older = pages.getByRole('link', { name: 'Older posts' });
    await older.scrollIntoViewIfNeeded();
    await expect(older).toBeInViewport();
    await older.click();
    await expect(page).toHaveURL(/\/blog\/page\/2$/);
    await expect(page).toHaveTitle(/^Blog, page 2 \|/);
    await expect(page.getByRole('link', { name: olderTitle, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Paging note 10', exact: true })).toHaveCount(0);
    await expect(list).toHaveCount(Math.min(12, totalPosts - 12));
    // The new page starts at its top, under the heading.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(pages).toContainText(`Page 2 of ${totalPages}`);

    await pages.getByRole('link', { name: 'Newer posts' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('link', { name: 'Paging note 10', exact: true })).toBeVisible();

    // The browser's own history walks the same pages.
    await page.goBack();
    await expect(page).toHaveURL(/\/blog\/page\/2$/);
    await expect(page.getByRole('link', { name: olderTitle, exact: true })).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('link', { name: 'Paging note 10', exact: true })).toBeVisible();

    // Page 2 straight from the server: drawn there, with its neighbours linked in the head.
    const html = await (await page.request.get('/blog/page/2')).text();
    expect(html).toContain(`<link rel="prev" href="${new URL('/blog', page.url()).href}" />`);
    if (totalPages > 2) expect(html).toContain('rel="next"');
    expect(html).toContain(olderTitle);
    const past = await page.goto(`/blog/page/${totalPages + 1}`);
    expect(past?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();

    await page.goto('/blog/page/2');
    await expect(page.getByRole('link', { name: olderTitle, exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`blog-page-2-${viewport.width}.png`), fullPage: true });
    await page.goto('/blog');
    await page.screenshot({ path: test.info().outputPath(`blog-page-1-${viewport.width}.png`), fullPage: true });
  });
}
