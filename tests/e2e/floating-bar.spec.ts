import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, layoutSettled, uniqueReader, registerByApi, test } from './support';

/**
 * On a phone (390 x 844) the floating bottom bar must never sit over a control of the page: at every
 * scroll position of every page, no visible button, link or field may intersect the bar while it shows.
 */
test.use({ viewport: { width: 390, height: 844 } });

const STEP_PX = 160;

/** Controls of the page under the bar, if the bar is showing. */
async function controlsUnderBar(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('nav[aria-label="Quick navigation"]');
    if (!bar) return ['(no floating bar)'];
    const style = getComputedStyle(bar);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) return [];
    const b = bar.getBoundingClientRect();
    const hits: string[] = [];
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"]';
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (bar.contains(el)) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      if (r.bottom <= b.top || r.top >= b.bottom || r.right <= b.left || r.left >= b.right) continue;
      const name = (el.getAttribute('aria-label') ?? el.innerText ?? el.tagName).trim().replace(/\s+/g, ' ');
      hits.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" at y=${Math.round(r.top)} (scrollY ${Math.round(window.scrollY)})`);
    }
    return hits;
  });
}

/**
 * Waits until the bar has reacted to the page as it now stands: every finite animation of the page is over
 * (entrance animations move controls without scrolling), then the bar makes one more check (it counts them
 * in `data-checks`; one runs on every scroll, layout change and at least every half second), React draws
 * its result on the next frames, and the bar's fade, if one started, ends.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const bar = document.querySelector<HTMLElement>('nav[aria-label="Quick navigation"]');
    if (!bar) return;
    const finite = (animation: Animation) => animation.effect?.getComputedTiming().endTime !== Infinity;
    const over = (animations: Animation[]) => Promise.all(animations.filter(finite).map((a) => a.finished.catch(() => undefined)));
    await over(document.getAnimations());
    const seen = Number(bar.dataset.checks ?? 0);
    await new Promise<void>((resolve) => {
      const watcher = new MutationObserver(() => {
        if (Number(bar.dataset.checks ?? 0) <= seen) return;
        watcher.disconnect();
        resolve();
      });
      watcher.observe(bar, { attributes: true, attributeFilter: ['data-checks'] });
    });
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    await nextFrame();
    await nextFrame();
    await over(bar.getAnimations());
  });
}

/** Scrolls from top to bottom and collects every control found under the showing bar. */
async function scrollThrough(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  for (let y = 0; y <= height + STEP_PX; y += STEP_PX) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), Math.min(y, height));
    // Sections that load as they come into view grow the page and move what is under the bar.
    await layoutSettled(page);
    await settled(page);
    for (const hit of await controlsUnderBar(page)) found.push(`${label}: ${hit}`);
  }
  return found;
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/username or email/i).fill(username);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

test('public pages: nothing interactive under the floating bar', async ({ page }) => {
  test.setTimeout(300_000);
  const pages: Array<[string, () => Promise<void>]> = [
    ['/', () => expect(page.locator('#blog-teaser').getByRole('article')).toHaveCount(3)],
    ['/blog', () => expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible()],
    ['/blog/on-writing-brothers', () => expect(page.getByTestId('post-content')).toBeVisible()],
    ['/login', () => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible()],
    ['/forgot-password', () => expect(page.getByRole('button', { name: 'Reset Password' })).toBeVisible()],
    ['/no-such-page', () => expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()],
  ];
  const found: string[] = [];
  for (const [path, ready] of pages) {
    await page.goto(path);
    await ready();
    await layoutSettled(page);
    found.push(...(await scrollThrough(page, path)));
  }
  expect(found).toEqual([]);
});

test('reader pages, the payment page and the admin pages: nothing interactive under the floating bar', async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  const reader = uniqueReader();
  const api: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  await registerByApi(api, reader);
  await api.dispose();

  const found: string[] = [];
  await signIn(page, reader.username, reader.password);
  await page.goto('/profile');
  await expect(page.getByRole('tab', { name: 'Account Details' })).toBeVisible();
  found.push(...(await scrollThrough(page, '/profile')));
  await page.goto('/profile#library');
  await expect(page.getByRole('heading', { name: 'Your Library' })).toBeVisible();
  found.push(...(await scrollThrough(page, '/profile#library')));

  // The test payment page, reached through the home page's purchase buttons.
  await page.goto('/#purchase');
  await page.getByRole('button', { name: 'Buy Audiobook' }).click();
  await expect(page.getByRole('button', { name: 'Pay £14.99' })).toBeVisible({ timeout: 20_000 });
  found.push(...(await scrollThrough(page, '/pay')));

  const adminContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const admin = await adminContext.newPage();
  await signIn(admin, ADMIN.username, ADMIN.password);
  for (const path of ['/admin', '/dashboard', '/admin/orders', '/admin/posts', '/admin/posts/new', '/admin/files', '/admin/messages', '/admin/subscribers', '/admin/users', '/admin/settings', '/admin/books/create']) {
    await admin.goto(path);
    await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
    await layoutSettled(admin);
    found.push(...(await scrollThrough(admin, path)));
  }
  await adminContext.close();
  expect(found).toEqual([]);
});
