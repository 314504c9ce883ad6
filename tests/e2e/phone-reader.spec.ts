import { expect, type Browser, type Page } from '@playwright/test';
import { readerWith, test } from './support';

/**
 * The reader on a phone and on a desktop: the book has the whole screen (no site header or floating
 * bar), the bottom bar fits from 320 px up, taps on the page's edges turn pages and a tap in the middle
 * hides and shows the controls, Escape closes the settings, Contents marks the chapter the reader is in,
 * and the audiobook player keeps its buttons on one row and the reader's speed across a reload.
 */

const WIDTHS = [
  { width: 320, height: 640, touch: true },
  { width: 390, height: 844, touch: true },
  { width: 1366, height: 900, touch: false },
];

async function deviceFor(browser: Browser, size: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    hasTouch: size.touch,
    isMobile: size.touch,
  });
  return { context, page: await context.newPage() };
}

/** Taps (a finger on a phone, a click on a desktop) at a share of the page's width, halfway down. */
async function tapPage(page: Page, share: number, touch: boolean) {
  const box = (await page.getByLabel('Book page').boundingBox())!;
  const x = box.x + box.width * share;
  const y = box.y + box.height / 2;
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

for (const size of WIDTHS) {
  test(`reading at ${size.width} px: whole screen, the bar fits, edge taps turn, Escape closes settings, Contents marks the chapter`, async ({ browser }) => {
    const { context, page } = await deviceFor(browser, size);
    const { bookId } = await readerWith(page.request, ['ebook']);
    await page.goto(`/read/${bookId}/ebook`);
    const progress = page.getByTestId('reading-progress');
    await expect(progress).toHaveText(/^\d+%$/, { timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Next page' })).toBeEnabled();

    // The site steps aside: no header, no floating bar, no footer.
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Quick navigation' })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);

    // The bottom bar fits the screen, "Next page" whole and inside it.
    const bar = page.getByTestId('page-nav');
    const barWidth = await bar.evaluate((el) => el.scrollWidth);
    expect(barWidth).toBeLessThanOrEqual(size.width);
    const next = (await page.getByRole('button', { name: 'Next page' }).boundingBox())!;
    expect(next.x).toBeGreaterThanOrEqual(0);
    expect(next.x + next.width).toBeLessThanOrEqual(size.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    // Taps on the right edge move on, on the left edge come back.
    const place = page.locator('[data-locator]');
    const start = await place.getAttribute('data-locator');
    const startPercent = await progress.textContent();
    await tapPage(page, 0.92, size.touch);
    await expect(place).not.toHaveAttribute('data-locator', start!);
    const moved = await place.getAttribute('data-locator');
    await tapPage(page, 0.92, size.touch);
    await expect(place).not.toHaveAttribute('data-locator', moved!);
    await tapPage(page, 0.08, size.touch);
    await expect(place).toHaveAttribute('data-locator', moved!);
    await tapPage(page, 0.08, size.touch);
    await expect(place).toHaveAttribute('data-locator', start!);
    await expect(progress).toHaveText(startPercent!);

    // The middle hides the controls for reading, and brings them back, without turning the page (the page
    // grows into the freed room, so its first line may change, but the reader stays where they were).
    await tapPage(page, 0.5, size.touch);
    await expect(page.getByRole('button', { name: 'Next page' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Contents' })).toHaveCount(0);
    await tapPage(page, 0.5, size.touch);
    await expect(page.getByRole('button', { name: 'Next page' })).toBeVisible();
    await expect(progress).toHaveText(startPercent!);

    // Escape closes the settings panel.
    await page.getByRole('button', { name: 'Reading settings' }).click();
    const settings = page.getByRole('region', { name: 'Reading settings' });
    await expect(settings).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(settings).toBeHidden();
    await expect(page.getByRole('button', { name: 'Reading settings' })).toBeFocused();

    // Contents marks the chapter the reader is in.
    const here = await place.getAttribute('data-locator');
    await page.getByRole('button', { name: 'Contents' }).click();
    const contents = page.getByRole('region', { name: 'Contents' });
    await expect(contents.getByRole('button', { name: 'Chapter One: The Return' })).toHaveAttribute('aria-current', 'true');
    await expect(contents.getByRole('button', { name: 'What We Owe the Dead', exact: true })).not.toHaveAttribute('aria-current');
    // A tap on the page while a panel is open only closes the panel.
    await tapPage(page, 0.92, size.touch);
    await expect(contents).toBeHidden();
    await expect(place).toHaveAttribute('data-locator', here!);

    // Leaving the book brings the site back.
    await page.getByRole('link', { name: 'Your library' }).click();
    await expect(page).toHaveURL('/profile#library');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Quick navigation' })).toHaveCount(1);
    await context.close();
  });
}

for (const size of WIDTHS) {
  test(`listening at ${size.width} px: the buttons keep one row and the speed survives a reload`, async ({ browser }) => {
    const { context, page } = await deviceFor(browser, size);
    const { bookId } = await readerWith(page.request, ['audiobook']);
    await page.goto(`/listen/${bookId}`);
    const transport = page.getByTestId('transport');
    await expect(transport.getByRole('button', { name: 'Play' })).toBeVisible();

    const tops = await transport.getByRole('button').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(tops).toHaveLength(3);
    expect(new Set(tops).size).toBe(1);
    expect(await transport.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    await expect(page.getByLabel('Speed')).toHaveValue('1');
    await page.getByLabel('Speed').selectOption('1.5');
    await page.reload();
    await expect(page.getByLabel('Speed')).toHaveValue('1.5');
    const audio = page.locator('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1.5);
    await context.close();
  });
}
