// Load benchmark (npm run build && npm run bench:load). In one run it starts a node:http hello-world server
// (the ceiling), nginx on the same files (when installed) and the built site on a fresh embedded database,
// then on DATABASE_URL when set. Server processes are pinned to one core and the load generator (wrk, else
// autocannon) to another when taskset and two cores exist. Each read runs at 20 and 100 connections right
// after a hello-world run (interleaved), so every ratio compares runs made moments apart. It also measures a
// hashed JS asset against nginx, a 50 MB download against nginx sendfile (one, and ten at once, with the
// server's memory), sign-in against an argon2 verify ceiling on the server's cores, event-loop delay and
// RSS. Then the compose shape: deploy/nginx.conf in front of the built site with DELIVERY=proxy (on PostgreSQL
// when DATABASE_URL is set, as compose runs it), a 50 MB
// download and the hashed script through it against nginx serving the same files alone, in the same run, in
// turns whose order rotates (takeTurns).
// Writes bench/reports/load.json and load.md and checks the budgets of issue 12 (exit code 1 when one
// is missed). Not run in CI: figures depend on the machine's load.
// Settings: BENCH_SECONDS (5), BENCH_PORT (first of eight ports, 3900), BENCH_ONLY=compose (the compose shape
// alone, written to bench/reports/load-compose.*), BENCH_SKIP_POSTGRES=1, BENCH_READS
// and BENCH_CONNECTIONS (comma lists), BENCH_NODE_ARGS (extra node flags for the site, e.g. --cpu-prof).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltSite } from './built-site.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// Sign-in runs at tens per second: it needs longer runs for a steady figure.
const signInSeconds = Math.max(seconds, 10);
const basePort = Number(process.env.BENCH_PORT ?? 3900);
const ports = { site: basePort + 1, hello: basePort + 2, nginx: basePort + 3, proxiedSite: basePort + 4, proxy: basePort + 5, nginxDefaults: basePort + 6, nginxCached: basePort + 7 };
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '20,100').split(',').map(Number);
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const cpus = os.cpus().length;
const pin = has('taskset') && cpus >= 2;
const SERVER_CPU = '0';
const LOAD_CPU = String(cpus - 1);
const onCpu = (cpu) => (pin ? ['taskset', '-c', cpu] : []);
const useWrk = has('wrk');
const nginxBin = ['nginx', '/usr/sbin/nginx'].find((c) => has(c));
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
fs.chmodSync(workDir, 0o755); // nginx's workers may run as another user
const children = [];

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err || out}`))));
  });
}

const toMs = (text) => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2]];
};

/**
 * Reads are asked for as a browser asks for them: it always accepts compressed answers. A hashed asset is
 * compared with nginx on gzip alone, so both servers send the same precompressed bytes of the same file.
 */
const BROWSER_ENCODINGS = 'gzip, deflate, br';
const ASSET_ENCODING = 'gzip';

/** One load run: requests per second, p50 and p99 in ms, and non-2xx/3xx answers. */
async function load(url, connections, { script, duration = seconds, acceptEncoding = BROWSER_ENCODINGS } = {}) {
  if (useWrk) {
    const header = acceptEncoding ? ['-H', `Accept-Encoding: ${acceptEncoding}`] : [];
    const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', ...header, ...(script ? ['-s', script] : []), url];
    const out = await run(...command([...onCpu(LOAD_CPU), 'wrk', ...args]));
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
    const p50 = toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? '');
    const p99 = toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? '');
    const bad = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    const errors = /Socket errors: (.*)/.exec(out)?.[1] ?? null;
    return { rps: Math.round(rps), p50: round(p50), p99: round(p99), bad, errors };
  }
  const { default: autocannon } = await import('autocannon');
  const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
  const r = await autocannon({ url, connections, duration, headers, ...(script?.autocannon ?? {}) });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx, errors: r.errors || null };
}
const round = (n) => Math.round(n * 100) / 100;

function helloServer() {
  const file = path.join(workDir, 'hello.mjs');
  fs.writeFileSync(
    file,
    `import http from 'node:http';
http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('hello world'); })
  .listen(${ports.hello}, '127.0.0.1', () => process.send?.('up'));`,
  );
  const child = spawn(...command([...onCpu(SERVER_CPU), process.execPath, file]), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the hello-world server exited (${code})`)));
  });
}
const command = (parts) => [parts[0], parts.slice(1)];

/**
 * nginx alone on the same files. Against the site in-process it keeps a connection for a million requests,
 * as Node does for any number; against the compose shape it has nginx's default (1,000), as the compose
 * shape's own nginx has, so that the two nginx differ only in deploy/nginx.conf's site.
 */
async function startNginx(root, downloads, { port = ports.nginx, name = 'nginx', keepaliveRequests = 1_000_000, extra = '' } = {}) {
  if (!nginxBin) return null;
  const conf = path.join(workDir, `${name}.conf`);
  fs.writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${workDir}/${name}.pid;
error_log ${workDir}/${name}-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  gzip_static on;
  keepalive_requests ${keepaliveRequests};
  ${extra}
  types { text/javascript js; audio/mpeg mp3; }
  client_body_temp_path ${workDir}/${name}-body;
  proxy_temp_path ${workDir}/${name}-proxy;
  fastcgi_temp_path ${workDir}/${name}-fastcgi;
  uwsgi_temp_path ${workDir}/${name}-uwsgi;
  scgi_temp_path ${workDir}/${name}-scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location /downloads/ { alias ${downloads}/; }
  }
}
`,
  );
  const child = spawn(...command([...onCpu(SERVER_CPU), nginxBin, '-c', conf, '-p', workDir]), { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  for (let i = 0; i < 50; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/index.html`);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('nginx did not start');
}

/** Asks the server (loop-monitor.mjs) for event-loop delay and memory since the last sample. */
function sample(site) {
  return new Promise((resolve) => {
    site.process.once('message', resolve);
    site.process.send('sample');
  });
}

/** A small client keeping cookies and the CSRF token, for the setup steps. */
function client(base) {
  const cookies = new Map();
  let csrf = null;
  async function request(method, url, body, headers = {}) {
    const h = { ...headers };
    if (cookies.size) h.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (csrf) h['x-csrf-token'] = csrf;
    if (body && !(body instanceof FormData)) {
      h['content-type'] = 'application/json';
      body = JSON.stringify(body);
    }
    const res = await fetch(base + url, { method, headers: h, body });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
  return {
    cookies,
    get csrf() {
      return csrf;
    },
    async init() {
      csrf = (await request('GET', '/api/csrf-token')).csrfToken;
    },
    get: (url) => request('GET', url),
    post: (url, body) => request('POST', url, body ?? {}),
    put: (url, body) => request('PUT', url, body),
  };
}

/**
 * A 50 MB audiobook: the seed MP3 and random bytes after it. An audiobook is sent as it is stored (ebooks
 * and PDFs are personalised for each buyer, so they cannot be compared with a plain file server).
 */
function bigAudiobook() {
  const file = path.join(workDir, 'big.mp3');
  const head = fs.readFileSync('src/server/db/seed/files/what-we-owe-the-dead-audio-sample.mp3');
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, head);
  const chunk = crypto.randomBytes(1 << 20);
  let left = 50_000_000 - head.length;
  while (left > 0) left -= fs.writeSync(out, chunk, 0, Math.min(chunk.length, left));
  fs.closeSync(out);
  return file;
}

/** One transfer lasts a fraction of a second, so single downloads are timed this often, taking turns with nginx. */
const SINGLE_RUNS = 5;
/** Turns of the compose shape's hashed script (takeTurns): each of the three servers goes first in a third. */
const SCRIPT_TURNS = 9;
/** One run of the hashed script within a turn, in seconds: short runs, and many turns. */
const SCRIPT_TURN_SECONDS = 2;
/**
 * Downloads through the compose shape, each taking turns with nginx alone: a transfer through it differs from
 * one alone by a few milliseconds out of some thirty, less than one run varies from the next. Even, so each
 * goes first as often.
 */
const COMPOSE_DOWNLOADS = 10;
const median = (values) => {
  const sorted = values.filter((v) => v !== null).sort((x, y) => x - y);
  if (!sorted.length) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/**
 * Measures each contestant once per turn, the order rotating so that each goes first as often as the others:
 * rates on this shared machine drift by a third within seconds, and a fixed order would favour whichever ran
 * while it was quieter. Returns each contestant's results in turn order (results[i][turn]).
 */
async function takeTurns(turns, contestants, measure) {
  const results = contestants.map(() => []);
  for (let turn = 0; turn < turns; turn++) {
    for (let k = 0; k < contestants.length; k++) {
      const i = (turn + k) % contestants.length;
      results[i].push(await measure(contestants[i], turn));
    }
  }
  return results;
}
/** The median of each turn's ratio: a drift of the whole machine from one turn to the next cannot move it. */
const pairedRatio = (numerators, denominators) => round(median(numerators.map((n, turn) => n / denominators[turn])));
/** The run whose rate is the median of the runs (its latencies with it). */
const medianRun = (runs) => [...runs].sort((x, y) => x.rps - y.rps)[Math.floor(runs.length / 2)];

/**
 * The admin uploads a 50 MB audiobook and buys it; each transfer gets a fresh link (the admin gives the
 * allowance back between links). Returns the links' paths and the audiobook's file.
 */
async function audiobookLinks(base, admin, count) {
  const a = client(base);
  await a.init();
  await a.post('/api/users/login', { username: admin.username, password: admin.password });
  await a.init();
  const bookId = (await a.get('/api/books/featured')).id;
  const form = new FormData();
  const audio = bigAudiobook();
  form.append('file', new Blob([fs.readFileSync(audio)], { type: 'audio/mpeg' }), 'big.mp3');
  const asset = await a.put(`/api/admin/books/${bookId}/files/audiobook`, form);
  const checkout = await a.post('/api/checkout', { bookId, format: 'audiobook' });
  await a.post(`/api/checkout/sessions/${checkout.url.split('/').pop()}/pay`);
  const order = (await a.get('/api/admin/orders')).items.find((o) => o.format === 'audiobook' && o.book.id === bookId);
  const links = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await a.post(`/api/admin/orders/${order.id}/reset-download`);
    links.push((await a.get(`/api/digital-assets/${asset.id}/download`)).downloadUrl);
  }
  return { links, audio };
}

/** Times whole-file downloads with curl (pinned to the load core): MB/s for one, and for `parallel` at once. */
async function downloadRate(urls, parallel) {
  const start = performance.now();
  const outs = await Promise.all(
    urls.slice(0, parallel).map((u) =>
      run(...command([...onCpu(LOAD_CPU), 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', u])),
    ),
  );
  for (const o of outs) if (!o.startsWith('200 ')) throw new Error(`download of ${urls[0]} answered '${o}'`);
  const seconds = (performance.now() - start) / 1000;
  const bytes = outs.reduce((a, b) => a + Number(b.split(' ')[1]), 0);
  return Math.round(bytes / 1e6 / seconds);
}

/** One download's first byte and the rest of it, in ms, as curl (pinned to the load core) saw them. */
async function downloadTimes(url) {
  const out = await run(...command([...onCpu(LOAD_CPU), 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code} %{time_starttransfer} %{time_total}', url]));
  const [status, firstByte, total] = out.split(' ');
  if (status !== '200') throw new Error(`download of ${url} answered '${out}'`);
  return { firstByteMs: Number(firstByte) * 1000, restMs: (Number(total) - Number(firstByte)) * 1000 };
}

/**
 * Argon2 verifies per second on the server's core, with as many at once as that core count allows (at most
 * 4, as the server's own gate): running more at once than there are cores is slower, so this is the best
 * rate the hardware gives the server.
 */
async function argonCeiling(hash, password) {
  const file = path.join(workDir, 'argon.mjs');
  const argon = path.resolve('node_modules/@node-rs/argon2/index.js');
  fs.writeFileSync(
    file,
    `import { createRequire } from 'node:module';
import os from 'node:os';
const { verify } = createRequire(import.meta.url)(${JSON.stringify(argon)});
const until = performance.now() + ${signInSeconds * 1000};
let done = 0;
const atOnce = Math.min(4, os.availableParallelism());
await Promise.all(Array.from({ length: atOnce }, async () => { while (performance.now() < until) { await verify(${JSON.stringify(hash)}, ${JSON.stringify(password)}); done++; } }));
console.log(done / ${signInSeconds});`,
  );
  return Math.round(Number(await run(...command([...onCpu(SERVER_CPU), process.execPath, file]))) * 10) / 10;
}

const admin = { username: 'benchadmin', email: 'benchadmin@example.com', password: 'bench passphrase long enough' };
const adminEnv = { ADMIN_USERNAME: admin.username, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password };

async function benchSite(kind, env) {
  const siteEnv = { NODE_ENV: 'development', LOG_LEVEL: 'info', ...adminEnv, ...env };
  // The first start creates and seeds the database; the measured server is a restart on that data, as a
  // server runs in production.
  const first = await startBuiltSite({ port: ports.site, name: `load-${kind}`, quiet: true, keepData: true, env: siteEnv });
  await first.stop();
  const site = await startBuiltSite({
    dataDir: first.dataDir,
    port: ports.site,
    name: `load-${kind}`,
    prefix: onCpu(SERVER_CPU),
    nodeArgs: ['--import', path.join(here, 'loop-monitor.mjs'), ...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [])],
    ipc: true,
    quiet: true,
    env: siteEnv,
  });
  const base = site.base;
  try {
    const posts = await (await fetch(`${base}/api/blog`)).json();
    const html = await (await fetch(`${base}/`)).text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const reads = process.env.BENCH_READS ? process.env.BENCH_READS.split(',') : ['/api/books/featured', '/api/books', '/api/site', '/', `/blog/${posts[0].id}`, script];
    const rows = [];
    await sample(site);
    for (const connections of CONNECTIONS) {
      for (const read of reads) {
        const hello = await load(`http://127.0.0.1:${ports.hello}/`, connections);
        const acceptEncoding = read === script ? ASSET_ENCODING : BROWSER_ENCODINGS;
        const r = await load(base + read, connections, { acceptEncoding });
        const loop = await sample(site);
        const row = { read: read === script ? `${read} (hashed JS)` : read, connections, ...r, hello: hello.rps, helloP99: hello.p99, ratio: round(r.rps / hello.rps), ...loop };
        if (read === script && nginxBin) row.nginx = (await load(`http://127.0.0.1:${ports.nginx}${read}`, connections, { acceptEncoding })).rps;
        if (row.nginx) row.ratioNginx = round(r.rps / row.nginx);
        rows.push(row);
        console.log(`${kind} ${String(connections).padStart(3)}c ${row.read.padEnd(34)} ${String(r.rps).padStart(6)} req/s p50 ${r.p50} p99 ${r.p99} ms  ${Math.round(row.ratio * 100)}% of hello ${hello.rps}${row.nginx ? `, ${Math.round(row.ratioNginx * 100)}% of nginx ${row.nginx}` : ''}  loop p99 ${loop.loopP99ms} ms  rss ${loop.rssMB} MB`);
      }
    }

    const { links, audio } = await audiobookLinks(base, admin, SINGLE_RUNS + 10);
    fs.mkdirSync(path.join(workDir, 'downloads'), { recursive: true });
    fs.copyFileSync(audio, path.join(workDir, 'downloads', 'big.mp3'));
    await sample(site);
    const nginxFile = `http://127.0.0.1:${ports.nginx}/downloads/big.mp3`;
    const orNull = (p) => p.catch((error) => (console.warn(`nginx download failed: ${error.message}`), null));
    const ones = [];
    const nginxOnes = [];
    for (let i = 0; i < SINGLE_RUNS; i++) {
      ones.push(await downloadRate([base + links[i]], 1));
      if (nginxBin) nginxOnes.push(await orNull(downloadRate([nginxFile], 1)));
    }
    const download = { one: median(ones), nginxOne: median(nginxOnes) };
    const before = await sample(site);
    download.ten = await downloadRate(links.slice(SINGLE_RUNS).map((l) => base + l), 10);
    const during = await sample(site);
    if (nginxBin) download.nginxTen = await orNull(downloadRate(Array(10).fill(nginxFile), 10));
    download.rssBeforeMB = before.rssMB;
    download.peakRssTenMB = during.peakRssMB;
    if (download.nginxOne) download.ratioOne = round(download.one / download.nginxOne);
    if (download.nginxTen) download.ratioTen = round(download.ten / download.nginxTen);
    console.log(`${kind} download 50 MB: ${download.one} MB/s (nginx ${download.nginxOne}), ten at once ${download.ten} MB/s (nginx ${download.nginxTen}); RSS ${before.rssMB} -> peak ${during.peakRssMB} MB`);

    // Sign-in at 4 connections against argon2 verifying the same hash on the server's own core, as many at
    // once as the server's gate allows there (one per core, at most 4).
    const loginFile = path.join(workDir, 'login.lua');
    const s = client(base);
    await s.init();
    const cookie = [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    fs.writeFileSync(
      loginFile,
      `wrk.method = "POST"
wrk.body = ${JSON.stringify(JSON.stringify({ username: admin.username, password: admin.password }))}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-CSRF-Token"] = ${JSON.stringify(s.csrf)}
wrk.headers["Cookie"] = ${JSON.stringify(cookie)}
`,
    );
    const { hash } = await import(path.resolve('node_modules/@node-rs/argon2/index.js')).then((m) => m.default ?? m);
    const storedHash = await hash(admin.password.normalize('NFC'), { algorithm: 2, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 });
    const ceiling = await argonCeiling(storedHash, admin.password);
    const signIn = useWrk ? await load(`${base}/api/users/login`, 4, { script: loginFile, duration: signInSeconds }) : null;
    const signInRow = signIn ? { ...signIn, ceiling, ratio: round(signIn.rps / ceiling) } : null;
    if (signInRow) console.log(`${kind} sign-in: ${signIn.rps} /s (non-2xx ${signIn.bad}) vs argon2 ceiling ${ceiling} /s: ${Math.round(signInRow.ratio * 100)}%`);
    const end = await sample(site);
    return { kind, rows, download, signIn: signInRow, rssAfterMB: end.rssMB };
  } finally {
    await site.stop();
  }
}

/**
 * deploy/nginx.conf itself in front of one built site: its app servers pointed at the site, its files
 * volume at the site's files directory, the built client where the image's would be, in the few lines nginx needs around it (the nginx image's main
 * configuration turns sendfile on). Its workers run as this user: the files are the app's alone.
 */
async function startDeployProxy(sitePort, filesDir) {
  const site = fs
    .readFileSync('deploy/nginx.conf', 'utf8')
    .replace(/server\s+app\d+:\d+/g, `server 127.0.0.1:${sitePort}`)
    .replace('listen 80;', `listen 127.0.0.1:${ports.proxy};`)
    .replace('alias /srv/site-files/;', `alias ${filesDir}/;`)
    .replace('root /srv/site-client;', `root ${path.resolve('dist/client')};`)
    // The files here are on disk; nginx only has to resolve the S3 location's host at start.
    .replace('proxy_pass http://minio:9000/;', 'proxy_pass http://127.0.0.1:9/;');
  const dir = path.join(workDir, 'proxy');
  fs.mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${dir}/${k};`).join('\n  ');
  fs.writeFileSync(
    conf,
    `user ${os.userInfo().username};\nworker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n  ${temp}\n${site}\n}\n`,
  );
  const child = spawn(...command([...onCpu(SERVER_CPU), nginxBin, '-c', conf, '-p', dir]), { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  const base = `http://127.0.0.1:${ports.proxy}`;
  for (let i = 0; i < 50; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return base;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`deploy/nginx.conf did not start: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-300)}`);
}

/**
 * The compose shape (issue 30): nginx with deploy/nginx.conf in front of the built site with DELIVERY=proxy,
 * so the app checks each download link and nginx sends the file; on PostgreSQL as compose runs it when
 * DATABASE_URL is set, else on PGlite. A 50 MB download and the hashed script through it, against nginx
 * serving the same files alone, taking turns in the same run.
 */
async function benchComposeShape(databaseUrl) {
  if (!nginxBin) return null;
  const site = await startBuiltSite({
    port: ports.proxiedSite,
    name: 'load-compose',
    prefix: onCpu(SERVER_CPU),
    quiet: true,
    env: { NODE_ENV: 'development', LOG_LEVEL: 'warn', DELIVERY: 'proxy', TRUST_PROXY: '1', ...adminEnv, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  try {
    const proxy = await startDeployProxy(ports.proxiedSite, path.join(site.dataDir, 'files'));
    // Links for the timed downloads, then as many for the times of their parts.
    const { links: allLinks, audio } = await audiobookLinks(site.base, admin, COMPOSE_DOWNLOADS * 2);
    const links = allLinks.slice(0, COMPOSE_DOWNLOADS);
    fs.mkdirSync(path.join(workDir, 'downloads'), { recursive: true });
    fs.copyFileSync(audio, path.join(workDir, 'downloads', 'big.mp3'));
    const alone = `http://127.0.0.1:${ports.nginxDefaults}`;
    await startNginx(path.resolve('dist/client'), path.join(workDir, 'downloads'), { port: ports.nginxDefaults, name: 'nginx-defaults', keepaliveRequests: 1000 });
    // deploy/nginx.conf keeps the hashed files open between requests; nginx alone with the same cache shows
    // what the rest of its location (the headers above all) costs. Reported, not a budget.
    const cached = `http://127.0.0.1:${ports.nginxCached}`;
    await startNginx(path.resolve('dist/client'), path.join(workDir, 'downloads'), { port: ports.nginxCached, name: 'nginx-cached', keepaliveRequests: 1000, extra: 'open_file_cache max=1000 inactive=60s;' });
    const aloneFile = `${alone}/downloads/big.mp3`;
    // Each turn's download through the compose shape has a link of its own.
    const [ones, nginxOnes] = await takeTurns(links.length, ['through', 'alone'], (who, turn) => downloadRate([who === 'through' ? proxy + links[turn] : aloneFile], 1));
    const download = { one: Math.round(median(ones)), nginxOne: Math.round(median(nginxOnes)), ratioOne: pairedRatio(ones, nginxOnes), runs: links.length, database: databaseUrl ? 'postgres' : 'pglite' };
    // Where a transfer's time goes: the first byte waits for the app's check of the link; the rest is nginx.
    const timed = allLinks.slice(COMPOSE_DOWNLOADS);
    const [throughTimes, aloneTimes] = await takeTurns(timed.length, ['through', 'alone'], (who, turn) => downloadTimes(who === 'through' ? proxy + timed[turn] : aloneFile));
    const medianMs = (times, part) => round(median(times.map((t) => t[part])));
    download.firstByteMs = medianMs(throughTimes, 'firstByteMs');
    download.nginxFirstByteMs = medianMs(aloneTimes, 'firstByteMs');
    download.restMs = medianMs(throughTimes, 'restMs');
    download.nginxRestMs = medianMs(aloneTimes, 'restMs');
    console.log(
      `compose download 50 MB: ${download.one} MB/s through nginx and the app, nginx alone ${download.nginxOne} MB/s (${Math.round(download.ratioOne * 100)}%), ${links.length} turns; ` +
        `first byte ${download.firstByteMs} ms (alone ${download.nginxFirstByteMs}), the rest ${download.restMs} ms (alone ${download.nginxRestMs})`,
    );
    const html = await (await fetch(`${proxy}/`)).text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const scripts = [];
    for (const connections of CONNECTIONS) {
      const [through, aloneRuns, cachedRuns] = await takeTurns(SCRIPT_TURNS, [proxy, alone, cached], (base) =>
        load(base + script, connections, { acceptEncoding: ASSET_ENCODING, duration: SCRIPT_TURN_SECONDS }),
      );
      const r = medianRun(through);
      const rates = (runs) => runs.map((run) => run.rps);
      const row = {
        read: `${script} (hashed JS)`,
        connections,
        ...r,
        nginx: medianRun(aloneRuns).rps,
        ratioNginx: pairedRatio(rates(through), rates(aloneRuns)),
        nginxCached: medianRun(cachedRuns).rps,
        ratioCached: pairedRatio(rates(through), rates(cachedRuns)),
        turns: SCRIPT_TURNS,
      };
      scripts.push(row);
      console.log(`compose ${String(connections).padStart(3)}c ${row.read} ${r.rps} req/s p99 ${r.p99} ms, nginx alone ${row.nginx} (${Math.round(row.ratioNginx * 100)}%), with open files kept ${row.nginxCached} (${Math.round(row.ratioCached * 100)}%), ${SCRIPT_TURNS} turns`);
    }
    return { download, scripts };
  } finally {
    await site.stop();
  }
}

function composeMisses(compose) {
  const misses = [];
  if (compose.download.ratioOne < 0.9) misses.push(`compose shape, 50 MB download: ${Math.round(compose.download.ratioOne * 100)}% of nginx alone (< 90%)`);
  for (const r of compose.scripts) {
    if (r.ratioNginx < 0.9) misses.push(`compose shape, hashed script at ${r.connections}c: ${Math.round(r.ratioNginx * 100)}% of nginx alone (< 90%)`);
    if (r.bad) misses.push(`compose shape, hashed script at ${r.connections}c: ${r.bad} answers not 2xx/3xx`);
  }
  return misses;
}

function composeMarkdown(compose) {
  const d = compose.download;
  return [
    `## Compose shape: deploy/nginx.conf in front of the site (${d.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, DELIVERY=proxy)`,
    '',
    'Every contestant is measured once per turn, the order rotating so that each goes first as often; a ratio is the median of the turns\' ratios, which a drift of the shared machine between turns cannot move, and a rate the median of the turns.',
    '',
    `50 MB download through nginx and the app: ${d.one} MB/s vs nginx alone ${d.nginxOne} MB/s, ${Math.round(d.ratioOne * 100)} % over ${d.runs} turns.`,
    `As curl times them (medians of ${d.runs} more turns): the first byte after ${d.firstByteMs} ms vs ${d.nginxFirstByteMs} ms alone (nginx asks the app, which checks the link and claims its transfer), the rest of the file in ${d.restMs} ms vs ${d.nginxRestMs} ms.`,
    '',
    `The hashed script, ${SCRIPT_TURNS} turns of ${SCRIPT_TURN_SECONDS} s runs; "nginx alone" has nginx's defaults, the last column keeps open files as deploy/nginx.conf does (reported, not a budget).`,
    '',
    '| read | conns | req/s | p50 ms | p99 ms | nginx alone req/s | ratio | nginx alone, open files kept | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...compose.scripts.map((r) => `| \`${r.read}\` | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.nginx} | ${Math.round(r.ratioNginx * 100)} % | ${r.nginxCached} | ${Math.round(r.ratioCached * 100)} % |`),
    '',
    (() => {
      const misses = composeMisses(compose);
      return misses.length ? `Budgets missed: ${misses.join('; ')}.` : 'All budgets met.';
    })(),
    '',
  ].join('\n');
}

function budgets(result) {
  const misses = [];
  for (const r of result.rows) {
    if (r.ratio < 0.4 && !r.read.includes('hashed')) misses.push(`${r.read} at ${r.connections}c: ${Math.round(r.ratio * 100)}% of hello-world (< 40%)`);
    if (r.connections === 100 && r.p99 >= 50) misses.push(`${r.read} at 100c: p99 ${r.p99} ms (>= 50)`);
    if (r.ratioNginx !== undefined && r.ratioNginx < 0.5) misses.push(`${r.read} at ${r.connections}c: ${Math.round(r.ratioNginx * 100)}% of nginx (< 50%)`);
    if (r.bad) misses.push(`${r.read} at ${r.connections}c: ${r.bad} answers not 2xx/3xx`);
  }
  if (result.download.ratioOne !== undefined && result.download.ratioOne < 0.8) misses.push(`50 MB download: ${Math.round(result.download.ratioOne * 100)}% of nginx sendfile (< 80%)`);
  if (result.signIn && result.signIn.ratio < 0.9) misses.push(`sign-in: ${Math.round(result.signIn.ratio * 100)}% of the argon2 ceiling (< 90%)`);
  if (result.kind === 'pglite' && result.rssAfterMB > 300) misses.push(`RSS after the benchmark ${result.rssAfterMB} MB (> 300)`);
  return misses;
}

function markdown(results) {
  const lines = [
    `# Load benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `${cpus} cores; ${pin ? `server on core ${SERVER_CPU}, load generator on core ${LOAD_CPU}` : 'no pinning'}; ${useWrk ? 'wrk' : 'autocannon'}, ${seconds} s per run; each read right after a hello-world run; loop p99 is the server's event-loop delay (beyond a 1 ms timer) during the run.`,
    '',
  ];
  for (const r of results) {
    lines.push(`## ${r.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`, '');
    lines.push('| read | conns | req/s | p50 ms | p99 ms | hello req/s | hello p99 ms | ratio | nginx req/s | loop p99 ms |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of r.rows) {
      lines.push(`| \`${row.read}\` | ${row.connections} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.hello} | ${row.helloP99} | ${Math.round(row.ratio * 100)} % | ${row.nginx ? `${row.nginx} (${Math.round(row.ratioNginx * 100)} %)` : ''} | ${row.loopP99ms} |`);
    }
    const d = r.download;
    lines.push('', `50 MB download: ${d.one} MB/s${d.nginxOne ? ` vs nginx sendfile ${d.nginxOne} MB/s (${Math.round(d.ratioOne * 100)} %)` : ''}; ten at once ${d.ten} MB/s${d.nginxTen ? ` vs ${d.nginxTen} MB/s (${Math.round(d.ratioTen * 100)} %)` : ''}; server RSS ${d.rssBeforeMB} MB before, peak ${d.peakRssTenMB} MB during the ten.`);
    if (r.signIn) lines.push(`Sign-in (4 connections): ${r.signIn.rps}/s vs argon2 ceiling ${r.signIn.ceiling}/s on the server's core (${Math.round(r.signIn.ratio * 100)} %), p99 ${r.signIn.p99} ms.`);
    lines.push(`RSS after the benchmark: ${r.rssAfterMB} MB.`);
    const misses = budgets(r);
    lines.push('', misses.length ? `Budgets missed: ${misses.join('; ')}.` : 'All budgets met.', '');
  }
  return lines.join('\n');
}

/** Runs `step` on a database of its own on DATABASE_URL's server, so a run neither sees nor leaves data in another one. */
async function withOwnDatabase(step) {
  const name = `bench_${Date.now().toString(36)}`;
  const { default: pg } = await import('pg');
  const owner = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await owner.connect();
  await owner.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    return await step(url.toString());
  } finally {
    await owner.query(`drop database if exists ${name} with (force)`);
    await owner.end();
  }
}

let exitCode = 0;
try {
  if (!has('curl')) throw new Error('curl is needed for the download runs');
  await helloServer();
  await startNginx(path.resolve('dist/client'), path.join(workDir, 'downloads'));
  const composeOnly = process.env.BENCH_ONLY === 'compose';
  const onPostgres = process.env.DATABASE_URL && process.env.BENCH_SKIP_POSTGRES !== '1';
  const results = composeOnly ? [] : [await benchSite('pglite', {})];
  if (!composeOnly && onPostgres) results.push(await withOwnDatabase((url) => benchSite('postgres', { DATABASE_URL: url })));
  const compose = onPostgres ? await withOwnDatabase(benchComposeShape) : await benchComposeShape(null);
  fs.mkdirSync('bench/reports', { recursive: true });
  // The compose shape alone does not replace the full report.
  const report = composeOnly ? 'bench/reports/load-compose' : 'bench/reports/load';
  fs.writeFileSync(`${report}.json`, JSON.stringify({ date: new Date().toISOString(), cpus, pinned: pin, tool: useWrk ? 'wrk' : 'autocannon', seconds, results, compose }, null, 2));
  const md = markdown(results) + (compose ? `\n${composeMarkdown(compose)}` : '');
  fs.writeFileSync(`${report}.md`, md);
  console.log(`\n${md}`);
  if (results.some((r) => budgets(r).length) || (compose && composeMisses(compose).length)) exitCode = 1;
} finally {
  for (const child of children) child.kill('SIGTERM');
  fs.rmSync(workDir, { recursive: true, force: true });
}
process.exit(exitCode);
