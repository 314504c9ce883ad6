// Load benchmark: starts the built site (npm run build first) on a fresh embedded database, or on
// DATABASE_URL if set, and measures throughput and latency of the hottest public reads with autocannon.
// Bounded: each target runs for BENCH_SECONDS (default 10) against 127.0.0.1 only. Writes bench/reports/load-pglite.json or load-postgres.json.
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { startBuiltSite } from './built-site.mjs';

const port = Number(process.env.BENCH_PORT ?? 3900);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const site = await startBuiltSite({ port, name: 'load', env: { NODE_ENV: 'development' } });
const base = site.base;

const targets = ['/api/books/featured', '/api/books', '/', '/api/blog', '/api/site'];
const results = {};
try {
  for (const target of targets) {
    const r = await autocannon({ url: base + target, connections: 20, duration: seconds });
    results[target] = {
      requestsPerSecond: Math.round(r.requests.average),
      latencyP50ms: r.latency.p50,
      latencyP99ms: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    };
    console.log(`${target.padEnd(22)} ${String(results[target].requestsPerSecond).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}`);
  }
} finally {
  await site.stop();
}
fs.mkdirSync('bench/reports', { recursive: true });
fs.writeFileSync(
  `bench/reports/load-${process.env.DATABASE_URL ? 'postgres' : 'pglite'}.json`,
  JSON.stringify({ date: new Date().toISOString(), cpus: os.cpus().length, seconds, connections: 20, results }, null, 2),
);
