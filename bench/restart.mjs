// Restart benchmark (npm run build && npm run bench:restart): how long `npm start` on an unchanged, built
// checkout takes to answer /readyz on existing PGlite data, as a reader's server restarts. The first start
// creates and seeds the database and is not counted; then RESTARTS timed restarts, each stopped with SIGINT.
// Writes bench/reports/restart.json. Exit code 1 when `npm start` does not come up (CI runs it for that);
// the under-2-s budget swings with the machine's load, so it fails the run only outside CI.
// Settings: BENCH_PORT (3960), BENCH_RESTARTS (5).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitReady } from './built-site.mjs';

const port = Number(process.env.BENCH_PORT ?? 3960);
const restarts = Number(process.env.BENCH_RESTARTS ?? 5);
const BUDGET_MS = 2000;
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-restart-'));

if (!fs.existsSync('dist/server/main.js')) {
  console.error('The site is not built: run `npm run build` first.');
  process.exit(2);
}

/** Runs `npm start` and resolves with the milliseconds from spawning it to the first 200 on /readyz. */
async function timedStart() {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: the stop reaches the server under npm and sh
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await Promise.race([
      waitReady(base, 10),
      exited.then((code) => {
        throw new Error(`npm start exited (${code}) before it was ready:\n${errors}`);
      }),
    ]);
    return Math.round(performance.now() - started);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid, 'SIGINT');
    await exited;
  }
}

let exitCode = 0;
try {
  await timedStart(); // creates and seeds the database
  const times = [];
  for (let i = 0; i < restarts; i++) times.push(await timedStart());
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const report = { date: new Date().toISOString(), cpus: os.cpus().length, loadAverage: os.loadavg()[0], node: process.version, times, medianMs: median, budgetMs: BUDGET_MS };
  fs.mkdirSync('bench/reports', { recursive: true });
  fs.writeFileSync('bench/reports/restart.json', `${JSON.stringify(report, null, 2)}\n`);
  const verdict = median < BUDGET_MS ? 'within' : 'over';
  console.log(`npm start on a built checkout, existing PGlite data: ready in ${times.join(', ')} ms (median ${median} ms, ${verdict} the ${BUDGET_MS} ms budget; load average ${report.loadAverage.toFixed(1)})`);
  if (median >= BUDGET_MS && process.env.CI !== 'true') exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
