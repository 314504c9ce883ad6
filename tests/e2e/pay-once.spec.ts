import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { ADMIN, readerWith, waitForMail, test } from './support';

/**
 * No one pays twice, and the e-book includes the PDF edition (issue 25 points 1-3, decision 0066), on a
 * phone and on a laptop: an owned format reads "In your library"; Back after paying lands on the formats,
 * a repeated /checkout address answers its confirmation, a second paperback is asked for; the PDF goes
 * from the e-book card to the library, the reader, the download and the receipt.
 */
const WIDTHS = [390, 1366] as const;
const SHOTS = process.env.E2E_SCREENSHOTS_DIR;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

const card = (page: Page, title: string) =>
  page.locator('#purchase li').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** The local payment page asks where a print order goes; fill it, then pay. */
async function payForPrint(page: Page, price: string) {
  await page.getByLabel('Full name').fill('Ada Reader');
  await page.getByLabel('Address line 1').fill('1 Harbour Street');
  await page.getByLabel('Town or city').fill('Whitby');
  await page.getByLabel('Postcode').fill('YO21 3PU');
  await page.getByLabel('Country').fill('United Kingdom');
  await page.getByRole('button', { name: `Pay ${price}` }).click();
  await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible();
}

const libraryOf = (page: Page) => page.locator('section[aria-labelledby="library-title"]');

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    });

    test('an owned e-book reads "In your library" with Read, and checkout refuses it before any payment', async ({ page }) => {
      const { bookId } = await readerWith(page.request, ['ebook']);
      await page.goto('/#purchase');
      const ebook = card(page, 'E-Book');
      await ebook.scrollIntoViewIfNeeded();
      await expect(ebook.getByText('In your library').first()).toBeVisible();
      await expect(ebook.getByRole('button', { name: 'Buy E-Book' })).toHaveCount(0);
      await expect(ebook.getByRole('button', { name: 'Buy as a gift' })).toBeVisible();
      // Not owned: still for sale.
      await expect(card(page, 'Audiobook').getByRole('button', { name: 'Buy Audiobook' })).toBeEnabled();
      await shot(page, `owned-card-${width}`);

      // An old /checkout address for it: refused with the way to the library, and no payment page.
      await page.goto(`/checkout?amount=999&title=What%20We%20Owe%20the%20Dead&format=ebook&bookId=${bookId}`);
      await expect(page.getByRole('heading', { name: 'Already in your library' })).toBeVisible();
      await expect(page.getByText('You already own the E-Book of What We Owe the Dead.', { exact: false })).toBeVisible();
      await shot(page, `owned-checkout-${width}`);
      await expect(page).toHaveURL(/\/checkout\?/);

      await page.goto('/#purchase');
      await card(page, 'E-Book').getByRole('link', { name: 'Read the E-Book' }).click();
      await expect(page).toHaveURL(`/read/${bookId}/ebook`);
    });

    test('Back after paying lands on the formats, a repeated address shows its order, a second copy is asked for', async ({ page }) => {
      const { bookId } = await readerWith(page.request, []);
      await page.goto('/');
      const paperback = card(page, 'Paperback');
      await paperback.scrollIntoViewIfNeeded();
      await paperback.getByRole('button', { name: 'Buy Paperback' }).click();
      await expect(page).toHaveURL(/\/pay\/[\w-]+$/);
      await payForPrint(page, '£16.99');
      const confirmation = new URL(page.url()).pathname;

      // Browser Back: the formats, never a new payment page.
      await page.goBack();
      await expect(page).toHaveURL(/\/(#purchase)?$/);
      const again = card(page, 'Paperback');
      await again.scrollIntoViewIfNeeded();
      await expect(again.getByText('You bought this a moment ago')).toBeVisible();
      await expect(again.getByRole('link', { name: 'View order' })).toHaveAttribute('href', confirmation);
      await shot(page, `recent-card-${width}`);

      // Buy again: asked first; "View my order" leads to the confirmation.
      await again.getByRole('button', { name: 'Buy Paperback' }).click();
      const dialog = page.getByRole('dialog', { name: 'You bought this a moment ago' });
      await expect(dialog).toContainText(/Your Paperback order WWD-[0-9A-F]{10} went through at \d\d:\d\d\. Do you want to buy another copy\?/);
      await shot(page, `recent-dialog-${width}`);
      await dialog.getByRole('link', { name: 'View my order' }).click();
      await expect(page).toHaveURL(confirmation);
      await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible();
      const orders = async () => ((await (await page.request.get('/api/library/orders')).json()) as unknown[]).length;
      expect(await orders()).toBe(1);

      // The same /checkout address twice (a reload, a history entry): the second shows the first's order.
      const address = `/checkout?amount=2499&title=What%20We%20Owe%20the%20Dead&format=hardcover&bookId=${bookId}&intent=e2e${width}a0b1c2d3e4f5a6b7c8d9`;
      await page.goto(address);
      await expect(page).toHaveURL(/\/pay\/[\w-]+$/);
      await payForPrint(page, '£24.99');
      const hardcover = page.url();
      await page.goto(address);
      await expect(page).toHaveURL(hardcover);
      await expect(page.getByRole('status').filter({ hasText: 'You bought this a moment ago' }).first()).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Order confirmed' })).toBeVisible();
      await shot(page, `repeat-confirmation-${width}`);
      expect(await orders()).toBe(2);

      // A deliberate second paperback: confirmed, paid, two paperbacks.
      await page.goto('/#purchase');
      await card(page, 'Paperback').getByRole('button', { name: 'Buy Paperback' }).click();
      await page.getByRole('dialog', { name: 'You bought this a moment ago' }).getByRole('button', { name: 'Buy another copy' }).click();
      await expect(page).toHaveURL(/\/pay\/[\w-]+$/);
      await payForPrint(page, '£16.99');
      expect(await orders()).toBe(3);
    });

    test('the e-book includes the PDF edition: card, library, reader, its own download, receipt', async ({ page }) => {
      await page.goto('/#purchase');
      const ebook = card(page, 'E-Book');
      await ebook.scrollIntoViewIfNeeded();
      await expect(ebook.getByText('Includes the PDF edition')).toBeVisible();
      await shot(page, `pdf-card-${width}`);

      const { reader, bookId } = await readerWith(page.request, ['ebook']);
      await page.goto('/profile#library');
      const library = libraryOf(page);
      await expect(library.getByText('2 formats purchased')).toBeVisible();
      await expect(library.getByText('Included with your e-book')).toBeVisible();
      await library.getByText('Included with your e-book').scrollIntoViewIfNeeded();
      await shot(page, `pdf-library-${width}`);

      // Its own one download, announced before it is spent.
      await library.getByRole('button', { name: 'Download PDF' }).click();
      const confirm = page.getByRole('dialog', { name: 'Download the PDF once' });
      const [file] = await Promise.all([page.waitForEvent('download'), confirm.getByRole('button', { name: 'Download now' }).click()]);
      expect(fs.readFileSync((await file.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await expect(library.getByRole('button', { name: 'PDF: Download Used' })).toBeDisabled();
      // The e-book keeps its own download.
      await expect(library.getByRole('button', { name: 'Download E-Book' })).toBeEnabled();

      await library.getByRole('link', { name: 'Read PDF' }).click();
      await expect(page).toHaveURL(`/read/${bookId}/pdf`);
      await expect(page.getByRole('figure', { name: 'Page 1' })).toBeVisible({ timeout: 20_000 });

      const receipt = await waitForMail(reader.email, /Includes: the PDF edition/);
      expect(receipt.raw).toContain('Includes: the PDF edition, with its own download in your library');
    });

    test('the Digital Files page says which purchase gives which file', async ({ page }) => {
      await page.goto('/login?returnTo=admin');
      await page.getByLabel(/username or email/i).fill(ADMIN.username);
      await page.getByLabel(/^password/i).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page).toHaveURL(/\/admin/);
      await page.goto('/admin/files');
      await expect(page.getByText('Given free with every E-Book (bought, included with print, or a gift), with its own download.', { exact: false }).first()).toBeVisible();
      await expect(page.getByText('Given with the Audiobook.').first()).toBeVisible();
      await shot(page, `admin-files-${width}`);
    });
  });
}
