/**
 * npm run bench:scale -- [--fraction 0.01] [--database scale_1] [--reuse] [--served] [--only TEXT] [--pglite [--data-dir DIR]]
 *
 * Makes a PostgreSQL database at a fraction of a successful launch (bench/scale/data.ts; 1 = 200,000
 * readers, about a million purchases), then times every admin read and the subscriber export through the
 * app (median of 5), sampling the process's RSS and event-loop delay and how long /healthz waits during the
 * exports (subscribers, orders, readers). Writes bench/reports/scale-<percent>.json and prints a table. Not run in CI (decision 0071).
 * --reuse keeps a database made by an earlier run (making 100 % takes minutes).
 * --served times the built server (`npm run build` first) started as a process of its own on that database,
 *   over HTTP, reading its RSS and event-loop delay from inside it (bench/scale/served.ts): the figures an
 *   operator sees, with npm start's node flags and the peaks of the heap's parts (SCALE_NODE_FLAGS adds
 *   flags of one's own, such as --trace-gc). Without it the app runs in this process, through inject, which
 *   holds each answer whole.
 * --only TEXT times only the reads and exports whose name holds TEXT, and writes no report.
 * --pglite makes the same data in an embedded PGlite database in a data directory instead, and also times
 * what a start does before it listens (opening that directory and checking the migrations), to find the
 * size past which a site belongs on PostgreSQL; it writes bench/reports/scale-pglite-<percent>.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { encodeCursor } from '../src/shared/schemas/pages';
import { openDatabase } from '../src/server/db/client';
import { runMigrations } from '../src/server/db/migrate';
import { createTestApp, createUser, signedInAgent } from '../src/server/test/helpers';
import { scaleDataStatements, sizesAt } from './scale/data';
import { startServedSite } from './scale/served';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const fraction = Number(arg('fraction', '0.01'));
const percent = `${+(fraction * 100).toFixed(2)}`;
const name = arg('database', `scale_${percent.replace('.', '_')}`);
const server = process.env.SCALE_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432';
const url = `${server}/${name}`;
const RUNS = 5;
const pglite = process.argv.includes('--pglite');
const served = process.argv.includes('--served') && !pglite;
// --only <text>: only the reads and exports whose name holds the text (to study one of them).
const only = arg('only', '');
const dataDir = arg('data-dir', path.join(os.tmpdir(), `site-scale-pglite-${percent}`));
const open = () => openDatabase(pglite ? { dataDir } : { databaseUrl: url });

async function makeDatabase() {
  if (pglite) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    return fill(await open());
  }
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return fill(await openDatabase({ databaseUrl: url }));
}

async function fill(database: Awaited<ReturnType<typeof openDatabase>>) {
  await runMigrations(database);
  const started = performance.now();
  for (const statement of scaleDataStatements(sizesAt(fraction))) await database.exec(statement);
  await database.close();
  return Math.round(performance.now() - started);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const generatedMs = process.argv.includes('--reuse') ? null : await makeDatabase();
// A start opens the database and checks its migrations before it listens: on PGlite that is what grows.
const opening = performance.now();
const database = Object.assign(await open(), { drop: async () => {} });
await runMigrations(database);
const openMs = Math.round(performance.now() - opening);
// /metrics answers the monitoring's bearer token alone.
const METRICS_TOKEN = 'scale-benchmark-metrics-token';
const t = await createTestApp({ database, seed: false, env: { METRICS_TOKEN, ...(pglite ? {} : { DATABASE_URL: url }) } });
const adminUser = await createUser(database, { role: 'admin' });
const agent = await signedInAgent(t.app, adminUser.id);

const one = async <T>(query: string) => ((await database.db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows[0];
const middle = await one<{ key: string; id: number; ref: string }>(
  `select purchase_date::text as key, id, order_reference as ref from purchases order by purchase_date desc, id desc offset (select count(*) / 2 from purchases) limit 1`,
);
const counts = await one<Record<string, number>>(
  `select (select count(*)::int from users) as readers, (select count(*)::int from purchases) as purchases,
          (select count(*)::int from newsletter_subscribers) as subscribers, (select count(*)::int from contact_messages) as messages`,
);
const deep = encodeCursor({ key: middle.key, id: middle.id });

const reads: Array<[string, string]> = [
  ['dashboard stats', '/api/dashboard/stats'],
  ['dashboard sales, all time', '/api/dashboard/sales?range=all'],
  ['dashboard sales, 30 days', '/api/dashboard/sales?range=30d'],
  ['orders, first page', '/api/admin/orders'],
  ['orders, page 200 (offset)', '/api/admin/orders?page=200'],
  ['orders, a page in the middle (cursor)', `/api/admin/orders?after=${deep}`],
  ['orders search by order reference', `/api/admin/orders?q=${middle.ref.slice(0, 10).toLowerCase()}`],
  ['orders search by name', '/api/admin/orders?q=reader123'],
  ['orders search by email domain', '/api/admin/orders?q=example.org'],
  ['subscribers, first page', '/api/admin/subscribers'],
  ['subscribers search', '/api/admin/subscribers?q=fan1234'],
  ['readers (accounts)', '/api/admin/users'],
  ['messages, first page', '/api/admin/messages'],
  ['posts, first page', '/api/admin/posts'],
  ['discount codes, first page', '/api/admin/discounts'],
  ['system page', '/api/admin/system'],
  ['/metrics scrape', '/metrics'],
];

interface Row {
  read: string;
  medianMs: number;
  status: number;
  kb: number;
  rssGrowthMb: number;
  loopDelayMaxMs: number;
  healthzMaxMs?: number;
  /** The built server's peaks over the read, where its RSS went (--served). */
  peaksMb?: { heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
}
const rows: Row[] = [];

/** Where the reads go, and how the server's memory and event-loop delay over a window are read. */
interface Target {
  get(route: string): Promise<{ status: number; bytes: number; ms: number }>;
  begin(): Promise<void>;
  end(): Promise<Pick<Row, 'rssGrowthMb' | 'loopDelayMaxMs' | 'peaksMb'>>;
  close(): Promise<void>;
}

function inProcessTarget(): Target {
  let rssBefore = 0;
  let rssPeak = 0;
  let sampler: NodeJS.Timeout | undefined;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  return {
    async get(route) {
      const at = performance.now();
      const res = await (route === '/healthz'
        ? t.app.inject({ method: 'GET', url: route })
        : route === '/metrics'
          ? t.app.inject({ method: 'GET', url: route, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
          : agent.get(route));
      return { status: res.statusCode, bytes: res.rawPayload.length, ms: performance.now() - at };
    },
    async begin() {
      global.gc?.();
      rssBefore = rssPeak = process.memoryUsage().rss;
      loop.reset();
      loop.enable();
      sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 25);
    },
    async end() {
      clearInterval(sampler);
      loop.disable();
      return { rssGrowthMb: Math.max(0, Math.round((rssPeak - rssBefore) / 1024 / 1024)), loopDelayMaxMs: Math.round(loop.max / 1e6) };
    },
    close: () => t.close(),
  };
}

async function servedTarget(): Promise<Target> {
  const bearer = (await t.app.sessions.create(adminUser.id)).bearerToken;
  await t.close();
  const site = await startServedSite(url, Number(process.env.BENCH_PORT ?? 3970), { METRICS_TOKEN });
  let before = 0;
  return {
    get: (route) => site.get(route, route === '/healthz' ? undefined : route === '/metrics' ? METRICS_TOKEN : bearer),
    async begin() {
      before = (await site.sample()).rssMB;
    },
    async end() {
      const after = await site.sample();
      return {
        rssGrowthMb: Math.max(0, after.peakRssMB - before),
        loopDelayMaxMs: Math.round(after.loopMaxMs),
        peaksMb: { heapTotal: after.peakHeapTotalMB, heapUsed: after.peakHeapUsedMB, external: after.peakExternalMB, arrayBuffers: after.peakArrayBuffersMB },
      };
    },
    close: () => site.stop(),
  };
}

const target = served ? await servedTarget() : inProcessTarget();

async function measure(read: string, route: string, withHealthz = false) {
  const times: number[] = [];
  let status = 0;
  let bytes = 0;
  let healthzMax = 0;
  await target.begin();
  for (let i = 0; i < RUNS; i++) {
    let done = false;
    const probe = withHealthz
      ? (async () => {
          while (!done) {
            healthzMax = Math.max(healthzMax, (await target.get('/healthz')).ms);
            await new Promise((r) => setTimeout(r, 20));
          }
        })()
      : null;
    const answer = await target.get(route);
    times.push(answer.ms);
    done = true;
    await probe;
    status = answer.status;
    bytes = answer.bytes;
  }
  const row: Row = {
    read,
    medianMs: Math.round(median(times)),
    status,
    kb: Math.round(bytes / 1024),
    ...(await target.end()),
    ...(withHealthz ? { healthzMaxMs: Math.round(healthzMax) } : {}),
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}

const exports: Array<[string, string]> = [
  ['subscribers CSV export', '/api/admin/subscribers.csv'],
  ['orders CSV export', '/api/admin/orders/export.csv'],
  ['readers CSV export', '/api/admin/users/export.csv'],
];
const chosen = ([read]: [string, string]) => read.includes(only);
for (const [read, route] of reads.filter(chosen)) await measure(read, route);
for (const [read, route] of exports.filter(chosen)) await measure(read, route, true);

await target.close();
await database.close();

const report = { database: pglite ? 'pglite' : 'postgres', served, fraction, counts, generatedMs, openMs, runs: RUNS, at: new Date().toISOString(), rows };
// A run of a few reads (--only) prints them and leaves the whole run's report as it was.
const out = only ? '(not written: --only)' : path.join(import.meta.dirname, 'reports', `scale-${pglite ? 'pglite-' : ''}${served ? 'served-' : ''}${percent}.json`);
if (!only) fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\n${percent} % on ${report.database}${served ? ', built server' : ''} (${counts.purchases} purchases, ${counts.subscribers} subscribers; opened in ${openMs} ms): ${out}`);
console.log('| admin read | median ms | KB | RSS growth MB | loop delay max ms |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.read} | ${r.medianMs} | ${r.kb} | ${r.rssGrowthMb} | ${r.loopDelayMaxMs}${r.healthzMaxMs !== undefined ? ` (healthz ${r.healthzMaxMs})` : ''} |`);
