import { expect, type Page } from '@playwright/test';
import { ADMIN, postJson, test } from './support';

/**
 * Images in posts: the author inserts pictures in the editor (the toolbar's Image button, a paste and a
 * drop), each described in the dialog, and gives the post a cover. Readers see the pictures with their
 * descriptions in the post, and the cover on the post and on its card on /blog, on a phone and a desktop,
 * in the server's HTML too, with nothing shifting as they load.
 */

/** A real picture (PNG) drawn by the browser, so what the post shows can be looked at. */
async function picture(page: Page, label: string, hue: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ({ text, h }) => {
      const canvas = document.createElement('canvas');
      canvas.width = 960;
      canvas.height = 540;
      const g = canvas.getContext('2d')!;
      const sky = g.createLinearGradient(0, 0, 0, 540);
      sky.addColorStop(0, `hsl(${h} 35% 22%)`);
      sky.addColorStop(1, `hsl(${h} 45% 8%)`);
      g.fillStyle = sky;
      g.fillRect(0, 0, 960, 540);
      g.fillStyle = `hsl(${h} 20% 85%)`;
      g.beginPath();
      g.arc(720, 150, 60, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = '#0b0a0c';
      g.fillRect(0, 400, 960, 140);
      g.font = '600 44px serif';
      g.fillStyle = '#f1ece2';
      g.fillText(text, 48, 480);
      return canvas.toDataURL('image/png');
    },
    { text: label, h: hue },
  );
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

/** Hands the editor a file as a paste or a drop would (a real DataTransfer holding a real File). */
async function pasteOrDrop(page: Page, kind: 'paste' | 'drop', png: Buffer, name: string) {
  const editor = page.getByRole('textbox', { name: 'Content' });
  // The editor drops a file only where it lands on the editor on screen (a point outside the viewport has no
  // place in the text): its end is brought into view, and the point kept inside the viewport, whatever height
  // the pictures above have given it by then.
  await editor.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  const box = (await editor.boundingBox())!;
  const bottom = Math.min(box.y + box.height, page.viewportSize()!.height);
  await editor.evaluate(
    (el, { base64, fileName, how, x, y }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], fileName, { type: 'image/png' }));
      const event =
        how === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true, clientX: x, clientY: y });
      el.dispatchEvent(event);
    },
    { base64: png.toString('base64'), fileName: name, how: kind, x: box.x + 20, y: bottom - 12 },
  );
}

async function describe(page: Page, alt: string) {
  const dialog = page.getByRole('dialog', { name: 'Describe the image' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Image description (alt text)').fill(alt);
  await dialog.getByRole('button', { name: 'Insert image' }).click();
  await expect(dialog).toBeHidden();
}

const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0));

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test(`at ${viewport.width} px the author inserts described pictures and a cover, and readers see them`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await postJson(page.request, '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
    const title = `Night at the harbour ${viewport.width} ${Date.now().toString(36)}`;
    const alts = [`The harbour wall at dusk (${viewport.width})`, `Gulls over the quay (${viewport.width})`, `The lighthouse in rain (${viewport.width})`];

    await page.goto('/admin/posts/new');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Excerpt').fill('Pictures from a night by the water.');
    const editor = page.getByRole('textbox', { name: 'Content' });
    await editor.click();
    await page.keyboard.type('The tide was out when I walked down.');

    // Upload from the toolbar.
    await page.getByLabel('Image file').setInputFiles({ name: 'wall.png', mimeType: 'image/png', buffer: await picture(page, 'Harbour wall', 215) });
    await describe(page, alts[0]);
    await expect(editor.getByRole('img', { name: alts[0] })).toBeVisible();
    // Typing goes on below the picture, once the closed dialog has handed the focus back to the editor.
    await expect(editor).toBeFocused();
    await page.keyboard.type('Then the gulls came.');
    await expect(editor.getByRole('img', { name: alts[0] })).toBeVisible();
    // Paste.
    await pasteOrDrop(page, 'paste', await picture(page, 'Gulls', 30), 'gulls.png');
    await describe(page, alts[1]);
    await expect(editor.getByRole('img', { name: alts[1] })).toBeVisible();
    // Drop.
    await pasteOrDrop(page, 'drop', await picture(page, 'Lighthouse', 350), 'lighthouse.png');
    await describe(page, alts[2]);
    await expect(editor.getByRole('img', { name: alts[2] })).toBeVisible();
    await expect(editor.getByRole('img')).toHaveCount(3);

    await page.getByLabel('Upload image').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await picture(page, 'Skelling by night', 250) });
    await expect(page.getByRole('img', { name: 'Cover image (optional): preview' })).toHaveAttribute('src', /^\/media\/images\/[a-f0-9]{32}\.png$/);
    const cover = await page.getByRole('img', { name: 'Cover image (optional): preview' }).getAttribute('src');
    await page.getByLabel('Published (visible on the blog)').check();
    await page.getByRole('button', { name: 'Save Post' }).click();
    await expect(page).toHaveURL(/\/admin\/posts$/);

    // A reader, signed out, on the blog: the card shows the cover.
    const reader = await browser.newContext({ viewport });
    const tab = await reader.newPage();
    await tab.goto('/blog');
    const card = tab.getByRole('article').filter({ has: tab.getByRole('link', { name: title, exact: true }) });
    await expect(card.getByTestId('post-cover')).toHaveAttribute('src', cover!);
    await card.getByTestId('post-cover').scrollIntoViewIfNeeded();
    await expect.poll(() => card.getByTestId('post-cover').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    const cardBox = (await card.boundingBox())!;
    const coverBox = (await card.getByTestId('post-cover').boundingBox())!;
    expect(Math.abs(coverBox.width - cardBox.width)).toBeLessThanOrEqual(2);

    // The post: its cover, then the pictures with their descriptions, in the order they were placed.
    await card.getByRole('link', { name: title, exact: true }).click();
    await expect(tab.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(tab.getByTestId('post-cover')).toHaveAttribute('src', cover!);
    const content = tab.getByTestId('post-content');
    await expect(content.getByText('The tide was out when I walked down.')).toBeVisible();
    await expect(content.getByText('Then the gulls came.')).toBeVisible();
    const pictures = content.getByRole('img');
    await expect(pictures).toHaveCount(3);
    for (const alt of alts) await expect(content.getByRole('img', { name: alt })).toHaveAttribute('src', /^\/media\/images\/[a-f0-9]{32}\.png$/);
    // Each keeps its own proportions (the size travelled with it), inside the column.
    for (const img of await pictures.all()) {
      // The content may still be rendered once more as the post's data settles: each try finds the picture anew.
      await expect(async () => {
        await img.scrollIntoViewIfNeeded();
        expect(await img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
      }).toPass();
      expect(await img.getAttribute('width')).toBe('960');
      expect(await img.getAttribute('height')).toBe('540');
      const b = (await img.boundingBox())!;
      expect(b.width).toBeLessThanOrEqual(viewport.width);
      expect(Math.abs(b.width / b.height - 960 / 540)).toBeLessThan(0.02);
    }
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    // Opened directly, the server's page already holds the cover and the described pictures, and nothing
    // moves while they arrive.
    const slug = new URL(tab.url()).pathname.split('/').pop()!;
    const html = await (await tab.request.get(`/blog/${slug}`)).text();
    expect(html).toContain(`src="${cover}"`);
    for (const alt of alts) expect(html).toContain(`alt="${alt}"`);
    await tab.goto(`/blog/${slug}`);
    await expect(tab.getByTestId('post-cover')).toBeVisible();
    await expect.poll(() => loaded(tab, '[data-testid="post-cover"]')).toEqual([true]);
    const shift = await tab.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
              if (!entry.hadRecentInput) total += entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 1000);
        }),
    );
    expect(shift).toBe(0);
    await reader.close();
  });
}
