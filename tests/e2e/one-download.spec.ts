import fs from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, type Page } from '@playwright/test';
import { ADMIN, expectToast, readerWith, waitForMail, test } from './support';

/**
 * The one download (issue 25 point 4), at a phone's and a desktop's width: the reader is told before
 * spending it; the browser's transfer breaks off and the same library row resumes it; once used, "Need
 * another download?" reaches the author, who grants it in one click, and the reader is mailed and can
 * download again.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage: false });
}

function expectEpub(bytes: Buffer) {
  // An EPUB is a zip whose first entry is an uncompressed "mimetype" file reading application/epub+zip.
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const start = 30 + bytes.readUInt16LE(26) + bytes.readUInt16LE(28);
  expect(bytes.subarray(start, start + 20).toString('latin1')).toBe('application/epub+zip');
}

for (const width of [390, 1366]) {
  test(`at ${width} px: the one download is announced, resumed from its row, and given back by the author`, async ({ browser, baseURL }) => {
    const viewport = { width, height: width < 600 ? 844 : 900 };
    const api = await playwrightRequest.newContext({ baseURL });
    const { reader } = await readerWith(api, ['ebook']);
    const context = await browser.newContext({ baseURL, viewport, storageState: await api.storageState(), acceptDownloads: true });
    await api.dispose();
    const page = await context.newPage();
    await page.goto('/profile#library');
    const library = page.locator('section[aria-labelledby="library-title"]');
    const row = library.locator('li', { has: page.getByText('E-Book', { exact: true }) }).last();

    // 1. Before spending it, the site says what the download is.
    await row.getByRole('button', { name: 'Download E-Book' }).click();
    const confirm = page.getByRole('dialog', { name: 'Download the E-Book once' });
    await expect(confirm.getByText(/one download of this file, and it will be saved on this device only/)).toBeVisible();
    await expect(confirm.getByText('Reading or listening in the browser never uses your download.')).toBeVisible();
    await shot(page, 'download-confirm');

    // 2. The browser's transfer breaks off after its first 100 bytes. (A browser's own download cannot be
    // intercepted, so the test plays that browser: it takes the real link, fetches the first 100 bytes of
    // it, and hands the page a link that fails, as a dropped connection leaves the download.)
    let broken: () => void = () => undefined;
    const brokenOff = new Promise<void>((resolve) => (broken = resolve));
    await page.route('**/api/digital-assets/*/download*', async (route) => {
      const answer = await route.fetch();
      const link = (await answer.json()) as { downloadUrl: string };
      const part = await page.request.get(link.downloadUrl, { headers: { range: 'bytes=0-99' } });
      expect(part.status()).toBe(206);
      await route.fulfill({ response: answer, json: { ...link, downloadUrl: '/files/download/connection-lost' } });
      broken();
    });
    await confirm.getByRole('button', { name: 'Download now' }).click();
    await expectToast(page, 'Download Started');
    await brokenOff;
    await page.unroute('**/api/digital-assets/*/download*');

    // 3. The download is used, but the same row offers to resume it while the link lives.
    await expect(row.getByRole('button', { name: 'E-Book: Download Used' })).toBeDisabled();
    const resume = row.getByRole('button', { name: 'Resume the E-Book download' });
    await expect(resume).toBeVisible();
    await expect(row.getByText(/Download interrupted\? Resume it here until \d{2}:\d{2}\./)).toBeVisible();
    await expect(row.getByRole('button', { name: 'Need another download?' })).toHaveCount(0);
    await shot(page, 'download-resume');
    const [file] = await Promise.all([page.waitForEvent('download'), resume.click()]);
    expect(file.suggestedFilename()).toBe('What We Owe the Dead.epub');
    expectEpub(fs.readFileSync((await file.path())!));
    await expectToast(page, 'Download complete');

    // 4. Finished, nothing is left to resume; the row offers to ask for another.
    await expect(resume).toHaveCount(0, { timeout: 20_000 });
    await expect(row.getByRole('button', { name: 'E-Book: Download Used' })).toBeDisabled();
    await row.getByRole('button', { name: 'Need another download?' }).click();
    await expectToast(page, 'Request sent');
    await expect(page.getByText('Your request has been sent to the author. We will email you as soon as your download is ready again.').first()).toBeVisible();
    await expect(row.getByText('Another download requested. We will email you.')).toBeVisible();
    await shot(page, 'download-requested');
    // The author's address for site mail (AUTHOR_EMAIL, its default here) is told who asks.
    const authorMail = await waitForMail('author@localhost', new RegExp(reader.email.replace(/[.]/g, '\\.')));
    expect(authorMail.raw).toContain('Download request: What We Owe the Dead (E-Book)');

    // 5. The author grants it in one click from Orders.
    const adminContext = await browser.newContext({ baseURL, viewport });
    const admin = await adminContext.newPage();
    await admin.goto('/login?returnTo=admin');
    await admin.getByLabel(/username or email/i).fill(ADMIN.username);
    await admin.getByLabel(/^password/i).fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign In' }).click();
    await expect(admin).toHaveURL(/\/admin$/);
    await admin.goto('/admin/orders');
    const requests = admin.getByRole('region', { name: /Download requests/ });
    const grant = requests.getByRole('button', { name: `Grant ${reader.displayName} another download of the E-Book` });
    await expect(grant).toBeVisible();
    await expect(requests.getByText(reader.email, { exact: false })).toBeVisible();
    await shot(admin, 'admin-download-requests');
    await grant.click();
    await expectToast(admin, 'Download granted');
    await expect(grant).toHaveCount(0);
    await expect(requests.getByText(/^Granted /).first()).toBeVisible();
    await adminContext.close();

    // 6. The reader is mailed, and the row downloads again (announced again).
    const granted = await waitForMail(reader.email, /can be downloaded again/);
    expect(granted.raw).toContain('/profile#library');
    await page.reload();
    await row.getByRole('button', { name: 'Download E-Book' }).click();
    const again = page.getByRole('dialog', { name: 'Download the E-Book once' });
    const [second] = await Promise.all([page.waitForEvent('download'), again.getByRole('button', { name: 'Download now' }).click()]);
    expectEpub(fs.readFileSync((await second.path())!));
    await context.close();
  });
}
