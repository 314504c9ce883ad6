// Upload and download benchmark (issue 16): a 500 MB audiobook streamed to the built site, on disk and
// on S3 (a local S3-compatible server), reporting the server's peak RSS growth and throughput; then a
// 50 MB file downloaded from each store. Usage: npm run build && npm run bench:upload [-- --mb 500]
// Ports: the site on BENCH_PORT (3171), the S3 server on BENCH_S3_PORT (3172).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { startBuiltSite } from './built-site.mjs';

const args = process.argv.slice(2);
const uploadMb = Number(args[args.indexOf('--mb') + 1] || 500);
const downloadMb = 50;
const port = Number(process.env.BENCH_PORT || 3171);
const s3Port = Number(process.env.BENCH_S3_PORT || 3172);
const BOUNDARY = '----benchUploadBoundary';
const ADMIN = { username: 'benchadmin', email: 'bench-admin@example.com', password: 'Bench-Admin-Password-1' };

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

class Session {
  constructor(base) {
    this.base = base;
    this.cookies = new Map();
    this.csrf = null;
  }
  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  absorb(res) {
    for (const line of res.headers.getSetCookie?.() ?? []) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  async ensureCsrf() {
    if (!this.csrf) {
      const r = await fetch(`${this.base}/api/csrf-token`, { headers: { cookie: this.cookieHeader() } });
      this.absorb(r);
      this.csrf = (await r.json()).csrfToken;
    }
    return this.csrf;
  }
  async json(method, url, body) {
    const headers = { cookie: this.cookieHeader() };
    // Download links must be asked for from the site: the CSRF token goes with GETs too.
    {
      headers['x-csrf-token'] = await this.ensureCsrf();
      headers.cookie = this.cookieHeader();
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    this.absorb(res);
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
}

/** Streams an MP3 of `mb` megabytes; returns seconds taken and the server's peak RSS growth. */
async function upload(session, pid, bookId, mb) {
  const block = Buffer.alloc(1024 * 1024, 7);
  const first = Buffer.from(block);
  first.write('ID3\u0004\u0000', 0, 'latin1');
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 50);
  const started = process.hrtime.bigint();
  const result = await new Promise((resolve, reject) => {
    const req = http.request(`${session.base}/api/admin/books/${bookId}/files/audiobook`, {
      method: 'PUT',
      headers: {
        cookie: session.cookieHeader(),
        'x-csrf-token': session.csrf,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    (async () => {
      const write = (b) => new Promise((r) => (req.write(b) ? r() : req.once('drain', r)));
      await write(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`));
      for (let i = 0; i < mb; i++) await write(i === 0 ? first : block);
      await write(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
      req.end();
    })().catch(reject);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  if (result.status !== 200 && result.status !== 201) throw new Error(`upload answered ${result.status}: ${result.body}`);
  return { seconds, growth: peak - baseline, baseline };
}

/** Buys the audiobook once, then times downloading it (a fresh link each run). */
async function download(session, bookId, runs = 3) {
  const asset = await session.json('GET', `/api/books/${bookId}/assets?format=audiobook`);
  const times = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    await session.json('POST', `/api/admin/orders/${session.purchaseId}/reset-download`).catch(() => undefined);
    const link = await session.json('GET', `/api/digital-assets/${asset.asset.id}/download`);
    const started = process.hrtime.bigint();
    const res = await fetch(`${session.base}${link.downloadUrl}`);
    bytes = 0;
    for await (const chunk of res.body) bytes += chunk.length;
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  times.sort((a, b) => a - b);
  return { seconds: times[Math.floor(times.length / 2)], bytes };
}

async function runOn(label, env) {
  const site = await startBuiltSite({
    port,
    name: `upload-${label}`,
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      ...env,
    },
  });
  try {
    const session = new Session(site.base);
    await session.json('POST', '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
    session.csrf = null;
    await session.ensureCsrf();
    const { id: bookId } = await session.json('GET', '/api/books/featured');
    const up = await upload(session, site.pid, bookId, uploadMb);
    console.log(`${label}: ${uploadMb} MB upload in ${up.seconds.toFixed(1)} s, peak RSS growth ${(up.growth / 1048576).toFixed(1)} MB`);
    // A 50 MB file for the download comparison, bought through the local payment page.
    await upload(session, site.pid, bookId, downloadMb);
    const checkout = await session.json('POST', '/api/checkout', { bookId, format: 'audiobook' });
    const checkoutId = checkout.url.split('/').pop();
    await session.json('POST', `/api/checkout/sessions/${checkoutId}/pay`);
    const orders = await session.json('GET', '/api/admin/orders?pageSize=5').catch(() => null);
    session.purchaseId = orders?.items?.[0]?.id ?? orders?.orders?.[0]?.id;
    const down = await download(session, bookId);
    return {
      label,
      upload: {
        mb: uploadMb,
        seconds: up.seconds,
        mbPerSecond: uploadMb / up.seconds,
        peakRssGrowthMb: up.growth / 1024 / 1024,
        baselineRssMb: up.baseline / 1024 / 1024,
      },
      download: { mb: down.bytes / 1024 / 1024, seconds: down.seconds, mbPerSecond: down.bytes / 1024 / 1024 / down.seconds },
    };
  } finally {
    await site.stop();
  }
}

const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-s3-'));
const s3 = new S3rver({ address: '127.0.0.1', port: s3Port, silent: true, directory: s3Dir, configureBuckets: [{ name: 'bench' }] });
await s3.run();
const results = [];
try {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'disk') results.push(await runOn('disk', {}));
  if (!only || only === 's3') results.push(
    await runOn('s3', {
      S3_BUCKET: 'bench',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    }),
  );
} finally {
  await s3.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
}

const f = (n, d = 1) => n.toFixed(d);
console.log(`\nUpload of ${uploadMb} MB (goal: peak RSS growth under 100 MB) and ${downloadMb} MB download`);
console.log('store  upload s  upload MB/s  peak RSS growth MB  download s  download MB/s');
for (const r of results) {
  console.log(
    `${r.label.padEnd(6)} ${f(r.upload.seconds).padStart(8)}  ${f(r.upload.mbPerSecond).padStart(11)}  ${f(r.upload.peakRssGrowthMb).padStart(18)}  ${f(r.download.seconds, 2).padStart(10)}  ${f(r.download.mbPerSecond).padStart(13)}`,
  );
}
fs.mkdirSync('bench/reports', { recursive: true });
fs.writeFileSync('bench/reports/upload.json', `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
const over = results.filter((r) => r.upload.peakRssGrowthMb >= 100);
if (over.length) {
  console.error(`Peak RSS growth over 100 MB on: ${over.map((r) => r.label).join(', ')}`);
  process.exit(1);
}
