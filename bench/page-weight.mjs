// Page-weight benchmark for the home page: the JavaScript and CSS a visitor downloads before touching
// anything, gzipped. It builds nothing: run `npm run build` first. It starts the built site on a fresh
// embedded database (or measures BENCH_URL if you already have one running), opens / in headless
// Chromium, waits for the network to settle, and sums every script and stylesheet requested.
// Fails (exit 1) over the JS budget or when an admin, dashboard or account chunk is among them.
// Then, on its own site only, it writes 2,000 posts into the database and checks that the HTML of `/`,
// `/blog` and `/blog/page/2` stays within its budget (bench/archive-weight.mjs).
// Writes bench/reports/page-weight.json.
import fs from 'node:fs';
import { ARCHIVE_POSTS, HTML_BUDGET_KB, measureHtml, seedArchive } from './archive-weight.mjs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { startBuiltSite } from './built-site.mjs';
import { READER_MARKERS, measureReader } from './reader-weight.mjs';

const JS_BUDGET_KB = Number(process.env.BENCH_JS_BUDGET_KB ?? 100);
// Chunks of the admin area, the dashboard and the reader's account pages (profile, library, password).
// The floating bar's small "account-menu" dropdown is public layout, not account code.
const FORBIDDEN = /^(admin|dashboard|profile|library|account-(?!menu)|change-password|checkout|login)[\w-]*\.(js|css)$/i;
// Strings only the admin, dashboard or account code contains: a chunk-name check alone could be fooled
// by the bundler merging that code into a shared chunk.
const FORBIDDEN_MARKERS = ['/api/dashboard/stats', '/api/admin/', 'Add New Book', 'Your Library', 'Account Details', ...READER_MARKERS];
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.BENCH_PORT ?? 3910);

let site = null;
let base = process.env.BENCH_URL;
const siteOptions = {
  port,
  name: 'page-weight',
  env: { NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true', SESSION_SECRET: 'page-weight-bench-secret-0123456789abcdef' },
  // Kept between the two starts of the archive case; removed at the end.
  keepData: true,
};
if (!base) {
  site = await startBuiltSite(siteOptions);
  base = site.base;
}

/** The archive case: the seeded site's HTML, then the same site's with 2,000 posts. Needs a site of its own. */
async function measureArchive() {
  if (!site) return null;
  const fresh = await measureHtml(base);
  await site.stop();
  const seedMs = await seedArchive(site.dataDir);
  site = await startBuiltSite({ ...siteOptions, dataDir: site.dataDir });
  const long = await measureHtml(base);
  const failures = long
    .filter((r) => r.status !== 200 || r.brKB > HTML_BUDGET_KB[r.page].br || r.rawKB > HTML_BUDGET_KB[r.page].raw)
    .map((r) => `${r.page}: status ${r.status}, ${r.brKB} KB br (budget ${HTML_BUDGET_KB[r.page].br}), ${r.rawKB} KB raw (budget ${HTML_BUDGET_KB[r.page].raw})`);
  return { posts: ARCHIVE_POSTS, seedMs, budgetKB: HTML_BUDGET_KB, pass: failures.length === 0, failures, fresh, long };
}

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

async function measure(width, height) {
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    const pending = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      pending.push(
        response.body().then((body) => {
          const text = body.toString('utf8');
          return {
            url: new URL(response.url()).pathname,
            type: type === 'script' ? 'js' : 'css',
            rawBytes: body.length,
            gzipBytes: zlib.gzipSync(body, { level: 9 }).length,
            markers: FORBIDDEN_MARKERS.filter((m) => text.includes(m)),
          };
        }),
      );
    });
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    // Let lazy route chunks and first data reads settle; nothing is clicked, scrolled or focused.
    await page.waitForTimeout(1500);
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(pending);
    const sum = (t, k) => files.filter((f) => f.type === t).reduce((s, f) => s + f[k], 0);
    return {
      viewport: `${width}x${height}`,
      jsGzipKB: kb(sum('js', 'gzipBytes')),
      cssGzipKB: kb(sum('css', 'gzipBytes')),
      jsRawKB: kb(sum('js', 'rawBytes')),
      cssRawKB: kb(sum('css', 'rawBytes')),
      forbiddenChunks: files
        .filter((f) => FORBIDDEN.test(path.basename(f.url)) || f.markers.length > 0)
        .map((f) => `${f.url}${f.markers.length ? ` (contains ${f.markers.join(', ')})` : ''}`),
      files: files
        .map(({ markers: _m, ...f }) => ({ ...f, rawKB: kb(f.rawBytes), gzipKB: kb(f.gzipBytes) }))
        .sort((a, b) => b.gzipBytes - a.gzipBytes),
    };
  } finally {
    await browser.close();
  }
}

let exitCode = 0;
try {
  const desktop = await measure(1366, 900);
  const mobile = await measure(390, 844);
  const worst = [desktop, mobile].reduce((a, b) => (b.jsGzipKB > a.jsGzipKB ? b : a));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const reader = await Promise.resolve()
    .then(async () => [await measureReader(browser, base, { width: 1366, height: 900 }), await measureReader(browser, base, { width: 390, height: 844 })])
    .finally(() => browser.close());
  const archive = await measureArchive();
  const pass =
    worst.jsGzipKB <= JS_BUDGET_KB && desktop.forbiddenChunks.length === 0 && mobile.forbiddenChunks.length === 0 && (archive?.pass ?? true);
  const report = {
    page: '/',
    measuredAt: new Date().toISOString(),
    budget: { jsGzipKB: JS_BUDGET_KB },
    pass,
    jsGzipKB: worst.jsGzipKB,
    cssGzipKB: worst.cssGzipKB,
    desktop,
    mobile,
    reader,
    archive,
  };
  fs.mkdirSync('bench/reports', { recursive: true });
  fs.writeFileSync('bench/reports/page-weight.json', `${JSON.stringify(report, null, 2)}\n`);
  for (const r of [desktop, mobile]) {
    console.log(`\nHome page before interaction (${r.viewport}): JS ${r.jsGzipKB} KB gzip (${r.jsRawKB} KB raw), CSS ${r.cssGzipKB} KB gzip (${r.cssRawKB} KB raw)`);
    for (const f of r.files) console.log(`  ${String(f.gzipKB).padStart(7)} KB  ${f.type.padEnd(3)} ${f.url}`);
    if (r.forbiddenChunks.length) console.log(`  FORBIDDEN chunks loaded: ${r.forbiddenChunks.join(', ')}`);
  }
  for (const r of reader) console.log(`\nReader ${r.route} (${r.viewport}): JS ${r.jsGzipKB} KB gzip, first page of the seeded EPUB after ${r.firstPageMs} ms`);
  if (archive) {
    console.log(`\nHTML with the seeded posts, then with ${archive.posts} (written in ${archive.seedMs} ms):`);
    archive.long.forEach((r, i) => {
      const f = archive.fresh[i];
      const budget = archive.budgetKB[r.page];
      console.log(
        `  ${r.page.padEnd(14)} ${f.brKB} KB br (${f.rawKB} KB raw) -> ${r.brKB} KB br (${r.rawKB} KB raw), status ${r.status}; budget ${budget.br} KB br, ${budget.raw} KB raw`,
      );
    });
    for (const failure of archive.failures) console.log(`  OVER BUDGET: ${failure}`);
  } else console.log('\nArchive case skipped: it needs a site of its own (BENCH_URL is set).');
  console.log(`\nJS budget ${JS_BUDGET_KB} KB gzip: ${pass ? 'PASS' : 'FAIL'} (report: bench/reports/page-weight.json)`);
  if (!pass) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await site?.stop();
  if (site) fs.rmSync(site.dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
