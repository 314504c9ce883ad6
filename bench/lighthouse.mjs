// Lighthouse benchmark of the public pages: `/`, `/blog` and a post, mobile (Lighthouse's default
// profile) and desktop, three runs each, in the system Chromium; the median of each figure is kept.
// It builds nothing: run `npm run build` first. It starts the built site on a fresh embedded database
// (or measures BENCH_URL). Writes bench/reports/lighthouse.json and bench/reports/lighthouse.md.
//
// Budgets: mobile performance >= 98, LCP < 1.5 s, TBT < 100 ms, CLS <= 0.02 on every page; desktop
// performance 100 and the same CLS; `/` at most 160 KB transferred on mobile and 175 KB on desktop (the
// goal is 150 KB: see docs/decisions/0020-server-rendered-public-pages.md) and 30 requests. Run by a person it
// fails (exit 1) over any budget. With CI=true the machine is shared and timing figures swing with its
// load, so only the stable figures gate (bytes, requests, CLS) and the score, LCP and TBT are reported.
import fs from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { startBuiltSite } from './built-site.mjs';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CI = process.env.CI === 'true' || process.env.CI === '1';
const BUDGET = {
  mobile: { score: 98, lcpMs: 1500, tbtMs: 100, cls: 0.02 },
  desktop: { score: 100, lcpMs: Infinity, tbtMs: Infinity, cls: 0.02 },
  // The goal is 150 KB; desktop also loads the synopsis section's code, which is in view there.
  home: { mobile: { transferKB: 160 }, desktop: { transferKB: 175 }, requests: 30 },
};
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.BENCH_PORT ?? 3911);

let site = null;
let base = process.env.BENCH_URL;
if (!base) {
  site = await startBuiltSite({
    port,
    name: 'lighthouse',
    env: { NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true', SESSION_SECRET: 'lighthouse-bench-secret-0123456789abcdef' },
  });
  base = site.base;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const round = (v, digits = 0) => Math.round(v * 10 ** digits) / 10 ** digits;

async function audit(chrome, url, formFactor) {
  const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  const { audits, categories } = result.lhr;
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  return {
    score: round((categories.performance.score ?? 0) * 100),
    lcpMs: round(audits['largest-contentful-paint'].numericValue),
    tbtMs: round(audits['total-blocking-time'].numericValue),
    cls: round(audits['cumulative-layout-shift'].numericValue, 3),
    fcpMs: round(audits['first-contentful-paint'].numericValue),
    transferKB: round(audits['total-byte-weight'].numericValue / 1024, 1),
    requests: audits['network-requests'].details?.items?.length ?? 0,
  };
}

// A run that Lighthouse itself could not complete (NO_NAVSTART and the like on a busy machine) says nothing
// about the page: it is tried again, twice at most, before the bench gives up.
async function auditWithRetry(chrome, url, formFactor) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(chrome, url, formFactor);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`  ${url} (${formFactor}): run not completed, trying again: ${error.message}`);
    }
  }
}

let exitCode = 0;
const chrome = await chromeLauncher.launch({
  chromePath: executablePath,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const posts = await (await fetch(`${base}/api/blog`)).json();
  const pages = ['/', '/blog', ...(posts.length ? [`/blog/${posts[0].id}`] : [])];
  const rows = [];
  const failures = [];
  const notes = [];
  for (const formFactor of ['mobile', 'desktop']) {
    for (const page of pages) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await auditWithRetry(chrome, `${base}${page}`, formFactor));
      const figures = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
      rows.push({ page, formFactor, ...figures, runs });
      console.log(
        `${formFactor.padEnd(7)} ${page.padEnd(48)} score ${figures.score}  LCP ${figures.lcpMs} ms  TBT ${figures.tbtMs} ms  CLS ${figures.cls}  ${figures.transferKB} KB  ${figures.requests} requests`,
      );
      const budget = BUDGET[formFactor];
      const check = (ok, text, stable) => {
        if (ok) return;
        if (stable || !CI) failures.push(text);
        else notes.push(`${text} (reported, not gated in CI)`);
      };
      check(figures.cls <= budget.cls, `${formFactor} ${page}: CLS ${figures.cls} > ${budget.cls}`, true);
      check(figures.score >= budget.score, `${formFactor} ${page}: score ${figures.score} < ${budget.score}`, false);
      check(figures.lcpMs < budget.lcpMs, `${formFactor} ${page}: LCP ${figures.lcpMs} ms >= ${budget.lcpMs} ms`, false);
      check(figures.tbtMs < budget.tbtMs, `${formFactor} ${page}: TBT ${figures.tbtMs} ms >= ${budget.tbtMs} ms`, false);
      if (page === '/') {
        const limit = BUDGET.home[formFactor].transferKB;
        check(figures.transferKB <= limit, `${formFactor} /: ${figures.transferKB} KB > ${limit} KB`, true);
        check(figures.requests <= BUDGET.home.requests, `${formFactor} /: ${figures.requests} requests > ${BUDGET.home.requests}`, true);
      }
    }
  }
  const report = { measuredAt: new Date().toISOString(), runsPerPage: RUNS, ci: CI, budget: BUDGET, pass: failures.length === 0, failures, notes, results: rows };
  fs.mkdirSync('bench/reports', { recursive: true });
  fs.writeFileSync('bench/reports/lighthouse.json', `${JSON.stringify(report, null, 2)}\n`);
  const table = [
    `# Lighthouse, median of ${RUNS} runs (${report.measuredAt})`,
    '',
    '| page | form | performance | LCP | TBT | CLS | transferred | requests |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| \`${r.page}\` | ${r.formFactor} | ${r.score} | ${r.lcpMs} ms | ${r.tbtMs} ms | ${r.cls} | ${r.transferKB} KB | ${r.requests} |`),
    '',
  ].join('\n');
  fs.writeFileSync('bench/reports/lighthouse.md', table);
  for (const note of notes) console.log(`  note: ${note}`);
  for (const failure of failures) console.log(`  OVER BUDGET: ${failure}`);
  console.log(`\nLighthouse budgets: ${failures.length ? 'FAIL' : 'PASS'} (report: bench/reports/lighthouse.json, lighthouse.md)`);
  if (failures.length) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await chrome.kill();
  await site?.stop();
}
process.exit(exitCode);
