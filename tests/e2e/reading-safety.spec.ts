import { expect, type Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { bookFrame, readerWith, test } from './support';

/**
 * Book content is untrusted: a script, an inline event handler or a javascript: link inside an EPUB
 * must never run on this site. And the reading and listening rooms pass axe-core at phone and desktop
 * widths.
 */

const page = (body: string, head = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en"><head><title>Hostile</title>${head}</head>${body}</html>`;

/** An EPUB that tries every way of running script a book could try. */
function hostileEpub(): Buffer {
  const beacon = (what: string) => `fetch('/api/hostile/${what}');document.title='PWNED ${what}';parent.document.title='PWNED ${what}'`;
  const chapter = page(
    `<body onload="${beacon('onload')}"><section epub:type="chapter"><h1>A chapter with traps</h1>` +
      `<script>${beacon('inline-script')}</script>` +
      `<script src="trap.js"></script>` +
      `<p>Plain words first.</p>` +
      `<img src="missing.png" alt="trap" onerror="${beacon('onerror')}"/>` +
      `<p><a id="js-link" href="javascript:${beacon('javascript-link')}">Click this javascript link</a></p>` +
      `<p><a id="data-link" href="data:text/html,&lt;script&gt;${beacon('data-link')}&lt;/script&gt;">Click this data link</a></p>` +
      `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="${beacon('svg-onload')}"><rect width="10" height="10"/></svg>` +
      `</section></body>`,
    `<script>${beacon('head-script')}</script>`,
  );
  const nav = page(`<body><nav epub:type="toc"><ol><li><a href="chapter.xhtml">A chapter with traps</a></li></ol></nav></body>`);
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000000</dc:identifier><dc:title>Hostile</dc:title><dc:language>en</dc:language>
<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="chapter" href="chapter.xhtml" media-type="application/xhtml+xml" properties="scripted svg"/>
<item id="trap" href="trap.js" media-type="application/javascript"/></manifest>
<spine><itemref idref="chapter"/></spine></package>`;
  return Buffer.from(
    zipSync({
      mimetype: [Buffer.from('application/epub+zip'), { level: 0 }],
      'META-INF/container.xml': Buffer.from('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
      'OEBPS/content.opf': Buffer.from(opf),
      'OEBPS/nav.xhtml': Buffer.from(nav),
      'OEBPS/chapter.xhtml': Buffer.from(chapter),
      'OEBPS/trap.js': Buffer.from(beacon('external-script')),
    }),
  );
}

test("a hostile EPUB's scripts, inline handlers and javascript: links never run", async ({ page: tab, context }) => {
  await tab.setViewportSize({ width: 1366, height: 900 });
  const { bookId } = await readerWith(tab.request, ['ebook']);
  // The browser is what is under test here: it receives a hostile book as the owner's copy.
  await tab.route(`**/api/library/${bookId}/ebook/content`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/epub+zip', body: hostileEpub(), headers: { 'cache-control': 'private, no-store' } }),
  );
  const beacons: string[] = [];
  context.on('request', (request) => {
    if (request.url().includes('/api/hostile/')) beacons.push(request.url());
  });
  const popups: string[] = [];
  context.on('page', (p) => popups.push(p.url()));

  await tab.goto(`/read/${bookId}/ebook`);
  await expect(tab.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });
  const frame = await bookFrame(tab);
  expect(frame, 'the book page is in its own frame').toBeTruthy();
  await expect(frame!.getByRole('heading', { name: 'A chapter with traps' })).toBeVisible();
  const sandbox = await (await frame!.frameElement()).getAttribute('sandbox');
  expect(sandbox).toBe('allow-same-origin');

  // Each click, heard on the book page's window once the reader's own handling of it is over: whether
  // the link's default action (following it) was cancelled. The listener comes from this page, as the
  // reader's do: the book's frame runs no script of its own.
  const frameElement = await frame!.frameElement();
  await frameElement.evaluate((iframe: HTMLIFrameElement) => {
    const seen: boolean[] = [];
    (window as unknown as { linkClicks: Promise<boolean[]> }).linkClicks = new Promise((resolve) => {
      iframe.contentWindow!.addEventListener('click', (event) => {
        seen.push(event.defaultPrevented);
        if (seen.length === 2) resolve(seen);
      });
    });
  });
  await frame!.getByRole('link', { name: 'Click this javascript link' }).click();
  await frame!.getByRole('link', { name: 'Click this data link' }).click();
  // Both clicks reached the book and neither link was followed.
  expect(await tab.evaluate(() => (window as unknown as { linkClicks: Promise<boolean[]> }).linkClicks)).toEqual([true, true]);

  expect(beacons).toEqual([]);
  expect(popups).toEqual([]);
  expect(await tab.title()).not.toContain('PWNED');
  expect(tab.url()).toMatch(new RegExp(`/read/${bookId}/ebook$`));
  await expect(frame!.getByRole('heading', { name: 'A chapter with traps' })).toBeVisible();
});

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

test.describe('accessibility of the reading and listening rooms', () => {
  // axe-core is injected by the test; only the test browser skips the CSP for that.
  test.use({ bypassCSP: true });

  async function seriousViolations(tab: Page): Promise<AxeViolation[]> {
    await tab.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
    const violations = await tab.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target })) }));
    });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  for (const viewport of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1366, height: 900 },
  ]) {
    test(`/read, /listen and /read/sample at ${viewport.width} px have no serious or critical violation`, async ({ page: tab }) => {
      await tab.setViewportSize(viewport);
      const { bookId } = await readerWith(tab.request, ['ebook', 'audiobook']);

      await tab.goto(`/read/${bookId}/ebook`);
      await expect(tab.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });
      expect(await seriousViolations(tab)).toEqual([]);
      await tab.getByRole('button', { name: 'Reading settings' }).click();
      await tab.getByText('Sepia', { exact: true }).click();
      await tab.getByRole('button', { name: 'Larger text size' }).click();
      await expect(tab.locator('output')).toHaveText('110%');
      expect(await seriousViolations(tab)).toEqual([]);
      await tab.screenshot({ path: `test-results/reading-room-read-${viewport.width}.png` });
      await tab.getByRole('button', { name: 'Reading settings' }).click();
      await tab.getByRole('button', { name: 'Contents' }).click();
      await expect(tab.getByRole('region', { name: 'Contents' }).getByRole('button', { name: 'Chapter One: The Return' })).toBeVisible();
      expect(await seriousViolations(tab)).toEqual([]);
      await tab.getByRole('region', { name: 'Contents' }).getByRole('button', { name: 'Chapter One: The Return' }).click();

      await tab.goto(`/listen/${bookId}`);
      await expect(tab.getByRole('button', { name: 'Play' })).toBeVisible();
      await expect(tab.getByRole('region', { name: 'Chapters' }).getByRole('button')).toHaveCount(2);
      expect(await seriousViolations(tab)).toEqual([]);
      await tab.screenshot({ path: `test-results/reading-room-listen-${viewport.width}.png`, fullPage: true });

      await tab.goto('/read/sample');
      await expect(tab.getByTestId('reading-progress')).toHaveText(/^\d+%$/, { timeout: 20_000 });
      expect(await seriousViolations(tab)).toEqual([]);
      await tab.screenshot({ path: `test-results/reading-room-sample-${viewport.width}.png` });
    });
  }
});
