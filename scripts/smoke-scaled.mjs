#!/usr/bin/env node
// The scaled-out shape of compose.yaml, started for real on this machine and checked across its instances:
// a fresh PostgreSQL database on the local server, a Redis of its own (redis-server, so it can be stopped
// and started again), an S3-compatible server (s3rver) with the bucket, an SMTP capture (smtp-server), and
// two instances of the built server (`node dist/server/main.js`) with the environment of compose.yaml's
// `x-app` block (DELIVERY=proxy among it), its host names and ports replaced by the local ones, behind
// compose's proxy (deploy/nginx.conf in nginx, its S3 location pointed at s3rver). Then, over HTTP:
//   both answer /readyz; a reader buys the e-book on A and downloads it with a link from B through the proxy,
//   which fetches it from the bucket (the bytes are the copy kept there, and nginx's log shows the app's
//   hand-off and S3's answer for it); the receipt reaches the SMTP capture; an admin change on A shows on B within a second; failed
//   sign-ins split between A and B meet one limit; Redis stopped: both keep serving reads and sign-ins;
//   Redis started again: both reconnect, and cache clears and limits are shared again.
// Everything listens on loopback only; every wait is bounded; children are stopped on any outcome.
// Usage: npm run smoke:scaled (after npm run build). SMOKE_DATABASE_URL (else TEST_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/postgres) names a role that may create databases.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import pg from 'pg';
import S3rver from 's3rver';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const require = createRequire(import.meta.url);

const TOTAL_TIMEOUT_MS = 150_000;
/** decision 0010: five failed sign-ins for one account from one address, then 429. */
const ACCOUNT_FAILURES_PER_ADDRESS = 5;
const CACHE_CHANNEL = 'public_cache_clear';
const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-scaled-'));
const cleanups = [];

class SmokeFailure extends Error {}
const fail = (message) => {
  throw new SmokeFailure(message);
};
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const pass = (message) => console.log(`smoke: ok   ${message} (${elapsed()})`);
const note = (message) => console.log(`smoke:      ${message}`);

/** Polls `probe` until it returns a truthy value, for at most `ms`; fails with `what` otherwise. */
async function until(what, ms, probe, everyMs = 100) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await pause(everyMs);
  }
  return fail(`${what} (waited ${ms} ms${last ? `; last error: ${last.message}` : ''})`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---- compose.yaml's app environment -------------------------------------------------------------------

/** The `environment:` mapping of the `x-app` block: plain `KEY: value` lines, quotes removed. */
function composeAppEnvironment(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^x-app:/.test(l));
  if (start < 0) fail('compose.yaml has no x-app block');
  const env = {};
  let inEnvironment = false;
  let indent = -1;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    if (/^\s+environment:\s*$/.test(line)) {
      inEnvironment = true;
      continue;
    }
    if (!inEnvironment || !line.trim() || line.trim().startsWith('#')) continue;
    const lineIndent = line.length - line.trimStart().length;
    if (indent < 0) indent = lineIndent;
    if (lineIndent < indent) break;
    const match = /^\s+([A-Z0-9_]+):\s*(.*)$/.exec(line);
    if (!match) fail(`compose.yaml x-app environment: cannot read "${line.trim()}"`);
    env[match[1]] = match[2].replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  if (Object.keys(env).length === 0) fail('compose.yaml x-app block has no environment');
  return env;
}

/** Replaces a URL's host and port (and path, when given), keeping the rest. */
function relocate(value, { host = '127.0.0.1', port, pathname, username, password }) {
  const url = new URL(value);
  url.hostname = host;
  url.port = String(port);
  if (pathname !== undefined) url.pathname = pathname;
  if (username !== undefined) url.username = username;
  if (password !== undefined) url.password = password;
  return url.toString().replace(/\/$/, '');
}

// ---- services --------------------------------------------------------------------------------------------

async function startPostgres() {
  const adminUrl = process.env.SMOKE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `smoke_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect().catch((error) => fail(`PostgreSQL at ${new URL(adminUrl).host} does not answer (${error.message})`));
  await admin.query(`create database ${name} template template0`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(adminUrl);
  return { host: url.hostname, port: Number(url.port || 5432), username: url.username, password: url.password, name };
}

function redisServerCommand() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  if (found.status !== 0) fail('redis-server is not installed (apt-get install redis-server)');
  return found.stdout.trim();
}

/** A redis-server of the smoke's own, on `port`, that it can stop and start again. */
function redisServer(bin, port) {
  let child = null;
  const start = async () => {
    child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work], {
      stdio: ['ignore', fs.openSync(path.join(work, 'redis.log'), 'a'), 'inherit'],
    });
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await until('redis-server did not answer PING', 10_000, async () => {
        await probe.connect().catch(() => undefined);
        return (await probe.ping()) === 'PONG';
      });
    } finally {
      probe.disconnect();
    }
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, pause(5000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  cleanups.push(stop);
  return { start, stop };
}

async function startS3(bucket, accessKeyId, secretAccessKey) {
  // s3rver signs with fixed development keys; compose's own keys are added to its account, so the instances
  // use compose.yaml's S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY unchanged.
  require('s3rver/lib/models/account.js').DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  const directory = path.join(work, 's3');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  cleanups.push(() => server.close());
  return port;
}

async function startSmtpCapture() {
  const mails = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { port: server.server.address().port, mails };
}

function nginxCommand() {
  const found = spawnSync('sh', ['-c', 'command -v nginx || command -v /usr/sbin/nginx'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/**
 * compose.yaml's proxy: deploy/nginx.conf itself, its upstream servers (app1:3000, app2:3000), its S3 store
 * (compose's S3_ENDPOINT) and its listen port replaced by the local ones, and the built client where the
 * proxy's image holds it, inside the few lines nginx needs to run as a plain process. Its access log gives
 * each request's upstreams and their statuses: an app's hand-off and then S3 for a file nginx fetched.
 */
async function startProxy(bin, port, instancePorts, s3) {
  let site = fs.readFileSync('deploy/nginx.conf', 'utf8');
  const upstreams = [...site.matchAll(/server\s+(app\d+:\d+)/g)].map((m) => m[1]);
  if (upstreams.length !== instancePorts.length) fail(`deploy/nginx.conf names ${upstreams.length} app servers, not ${instancePorts.length}`);
  upstreams.forEach((upstream, i) => (site = site.replace(upstream, `127.0.0.1:${instancePorts[i]}`)));
  if (!/listen 80;/.test(site)) fail('deploy/nginx.conf does not listen on port 80 as compose.yaml maps it');
  site = site.replace('listen 80;', `listen 127.0.0.1:${port};`);
  // The app signs for S3_ENDPOINT's host, so the S3 location must fetch from that very endpoint.
  const store = `proxy_pass ${s3.composeEndpoint}/;`;
  if (!site.includes(store)) fail(`deploy/nginx.conf's S3 location does not fetch from compose.yaml's S3_ENDPOINT (${store})`);
  site = site.replace(store, `proxy_pass ${s3.endpoint}/;`);
  if (!site.includes('root /srv/site-client;')) fail('deploy/nginx.conf does not send the built client from /srv/site-client');
  site = site.replace('root /srv/site-client;', `root ${path.resolve('dist/client')};`);
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(dir, { recursive: true });
  // nginx's workers may run as another user than its master.
  fs.chmodSync(work, 0o755);
  fs.chmodSync(dir, 0o755);
  const conf = path.join(dir, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${dir}/${k};`).join('\n  ');
  fs.writeFileSync(
    conf,
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 256; }\nhttp {\n  log_format upstreams '$request_uri $status "$upstream_addr" "$upstream_status" $body_bytes_sent';\n` +
      `  access_log ${dir}/access.log upstreams;\n  ${temp}\n${site}\n}\n`,
  );
  const child = spawn(bin, ['-c', conf, '-p', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, pause(5000)]);
  });
  const base = `http://127.0.0.1:${port}`;
  await until('nginx did not start with deploy/nginx.conf', 10_000, async () => {
    if (child.exitCode !== null) fail(`nginx exited with ${child.exitCode}: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-500)}`);
    return (await fetch(`${base}/healthz`)).ok;
  });
  const accessLog = () => (fs.existsSync(path.join(dir, 'access.log')) ? fs.readFileSync(path.join(dir, 'access.log'), 'utf8') : '');
  return { name: 'proxy', base, accessLog };
}

/** One built instance; its output goes to a log file, shown when the smoke fails. */
function startInstance(name, port, env) {
  const logFile = path.join(work, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(work, `data-${name}`) },
    stdio: ['ignore', out, out],
  });
  const instance = { name, base: `http://127.0.0.1:${port}`, child, logFile, exited: null };
  child.on('exit', (code, signal) => (instance.exited = { code, signal }));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, pause(20_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return instance;
}

function assertRunning(...instances) {
  for (const i of instances) if (i.exited) fail(`instance ${i.name} exited (${JSON.stringify(i.exited)}); see its log below`);
}

// ---- HTTP ------------------------------------------------------------------------------------------------

/** A browser-like session: cookies and the CSRF token, usable against either instance. */
function session(headers = {}) {
  const cookies = new Map();
  let csrf = null;
  async function request(instance, method, url, body, extra = {}) {
    const h = { ...headers, ...extra };
    if (cookies.size) h.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (csrf) h['x-csrf-token'] = csrf;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(instance.base + url, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, bytes, json: type.includes('json') && bytes.length ? JSON.parse(bytes.toString('utf8')) : null };
  }
  const expectOk = async (instance, method, url, body) => {
    const res = await request(instance, method, url, body);
    if (res.status < 200 || res.status > 299) fail(`${method} ${url} on ${instance.name}: ${res.status} ${res.bytes.toString('utf8').slice(0, 300)}`);
    return res;
  };
  return {
    request,
    get: async (instance, url) => (await expectOk(instance, 'GET', url)).json,
    bytes: async (instance, url) => (await expectOk(instance, 'GET', url)).bytes,
    post: async (instance, url, body = {}) => (await expectOk(instance, 'POST', url, body)).json,
    put: async (instance, url, body) => (await expectOk(instance, 'PUT', url, body)).json,
    refreshCsrf: async (instance) => {
      csrf = null;
      csrf = (await expectOk(instance, 'GET', '/api/csrf-token')).json.csrfToken;
    },
  };
}

async function readyz(instance) {
  const res = await fetch(`${instance.base}/readyz`, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: await res.json() };
}

async function login(instance, username, password, address) {
  // As nginx does in compose (X-Forwarded-For, TRUST_PROXY=1): each check signs in from its own address.
  const visitor = session({ 'x-forwarded-for': address });
  await visitor.refreshCsrf(instance);
  return visitor.request(instance, 'POST', '/api/users/login', { username, password });
}

/** The book's tagline as B's public read answers it, until it reads `expected`; the time it took. */
async function seenWithin(instance, bookId, expected, ms) {
  const from = Date.now();
  const anonymous = session();
  await until(`${instance.name} still answers the old tagline ${ms} ms after the change`, ms, async () => {
    return (await anonymous.get(instance, `/api/books/${bookId}`)).tagline === expected;
  }, 25);
  return Date.now() - from;
}

async function subscribers(redisPort) {
  const client = new Redis({ host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: 0, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const [, count] = await client.pubsub('NUMSUB', CACHE_CHANNEL);
    return Number(count);
  } finally {
    client.disconnect();
  }
}

// ---- the run ---------------------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/client/index.html')) {
    fail('the site is not built: run `npm run build` first');
  }
  const redisBin = redisServerCommand();
  // compose's proxy sends the files (DELIVERY=proxy): without nginx there is no download to check.
  const nginx = nginxCommand();
  if (!nginx) fail('nginx is not installed (apt-get install nginx): compose.yaml has its proxy send the files');
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const compose = composeAppEnvironment(fs.readFileSync('compose.yaml', 'utf8'));

  const [redisPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
  const database = await startPostgres();
  const redis = redisServer(redisBin, redisPort);
  await redis.start();
  const s3Port = await startS3(compose.S3_BUCKET, compose.S3_ACCESS_KEY_ID, compose.S3_SECRET_ACCESS_KEY);
  const smtp = await startSmtpCapture();
  const env = {
    ...compose,
    DATABASE_URL: relocate(compose.DATABASE_URL, {
      host: database.host,
      port: database.port,
      pathname: `/${database.name}`,
      username: database.username,
      password: database.password,
    }),
    REDIS_URL: relocate(compose.REDIS_URL, { port: redisPort }),
    S3_ENDPOINT: relocate(compose.S3_ENDPOINT, { port: s3Port }),
    SMTP_URL: relocate(compose.SMTP_URL, { port: smtp.port }),
    // nginx starts after the instances, on a port of its own: links in mail and pages point at instance A.
    PUBLIC_URL: relocate(compose.PUBLIC_URL, { port: portA }),
  };
  note(`services: PostgreSQL database ${database.name}, redis-server :${redisPort}, s3rver :${s3Port}, SMTP capture :${smtp.port}`);
  note(`compose.yaml x-app environment: ${Object.keys(compose).join(' ')}`);

  // Both at once, as compose starts them: they migrate and seed the same empty database together.
  const a = startInstance('A', portA, env);
  const b = startInstance('B', portB, env);
  for (const instance of [a, b]) {
    const ready = await until(`instance ${instance.name} did not answer /readyz with 200`, 60_000, async () => {
      assertRunning(instance);
      const r = await readyz(instance).catch(() => null);
      return r?.status === 200 && r.body.redis === 'ok' ? r : null;
    }, 200);
    if (ready.body.database !== 'postgres') fail(`instance ${instance.name} runs on ${ready.body.database}, not PostgreSQL`);
  }
  pass(`both instances ready (/readyz 200, database postgres, redis ok): ${a.base} and ${b.base}`);

  // compose.yaml's proxy in front of both.
  const proxy = await startProxy(nginx, await freePort(), [portA, portB], { composeEndpoint: compose.S3_ENDPOINT, endpoint: env.S3_ENDPOINT });
  {
    // Each instance logs one line per request (its URL without the query): count its /readyz lines.
    const readyzLines = (instance) => fs.readFileSync(instance.logFile, 'utf8').split('"url":"/readyz"').length - 1;
    const before = [a, b].map(readyzLines);
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${proxy.base}/readyz`, { signal: AbortSignal.timeout(5000) });
      if (res.status !== 200) fail(`/readyz through the proxy answered ${res.status}`);
    }
    await until('the proxy did not send /readyz to both instances', 5000, () =>
      [a, b].every((instance, i) => readyzLines(instance) > before[i]),
    );
    const metricsViaProxy = await fetch(`${proxy.base}/metrics`, { headers: { authorization: `Bearer ${compose.METRICS_TOKEN}` } });
    if (metricsViaProxy.status !== 404) fail(`/metrics through the proxy answered ${metricsViaProxy.status}, not 404`);
    const metrics = await fetch(`${a.base}/metrics`, { headers: { authorization: `Bearer ${compose.METRICS_TOKEN}` } });
    if (metrics.status !== 200) fail(`/metrics on A with METRICS_TOKEN answered ${metrics.status}`);
    const page = await session().request(proxy, 'GET', '/');
    if (page.status !== 200 || !page.bytes.toString('utf8').includes('What We Owe the Dead')) fail('the home page through the proxy is not the site');
    pass('deploy/nginx.conf in front of both: /readyz through it reaches A and B, the home page serves, /metrics only off the proxy');

    // The proxy's image holds the built client: nginx sends a hashed script without asking an instance.
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.bytes.toString('utf8'))?.[1];
    if (!script) fail('the home page names no hashed script');
    const sent = await session().request(proxy, 'GET', script);
    if (sent.status !== 200 || !sent.bytes.equals(fs.readFileSync(path.join('dist/client', script)))) fail(`${script} through the proxy is not the built file`);
    const scriptLine = await until(`no access-log line of the proxy for ${script}`, 5000, () => proxy.accessLog().split('\n').find((l) => l.startsWith(`${script} `)));
    if (!scriptLine.includes('"-"')) fail(`the proxy asked an instance for ${script}: ${scriptLine}`);
    pass(`the proxy sends the built client's ${script} itself`);
  }

  const s3 = new S3Client({
    region: compose.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: compose.S3_ACCESS_KEY_ID, secretAccessKey: compose.S3_SECRET_ACCESS_KEY },
  });
  const listBucket = async (prefix) =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: compose.S3_BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key);
  const objectBytes = async (key) =>
    Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: compose.S3_BUCKET, Key: key }))).Body.transformToByteArray());

  // A reader registers and buys the e-book on A, then downloads it on B.
  const reader = { username: `smoke_${id}`, email: `smoke_${id}@example.com`, displayName: 'Smoke Reader', password: `Smoke-pass-${id}` };
  const browser = session({ 'x-forwarded-for': '198.51.100.10' });
  await browser.refreshCsrf(a);
  await browser.post(a, '/api/users/register', reader);
  await browser.post(a, '/api/users/login', { username: reader.username, password: reader.password });
  await browser.refreshCsrf(a);
  const book = await browser.get(a, '/api/books/featured');
  const checkout = await browser.post(a, '/api/checkout', { bookId: book.id, format: 'ebook' });
  const paymentSession = checkout.url.split('/').pop();
  await browser.post(a, `/api/checkout/sessions/${paymentSession}/pay`);
  pass(`reader bought the e-book of "${book.title}" on A`);

  // The link comes from B; the download goes through the proxy, which hands it to either instance.
  const asset = (await browser.get(b, `/api/books/${book.id}/assets?format=ebook`)).asset;
  const link = await browser.get(b, `/api/digital-assets/${asset.id}/download`);
  const downloadUrl = new URL(link.downloadUrl, b.base);
  const downloadPath = downloadUrl.pathname + downloadUrl.search;
  const downloaded = await browser.bytes(proxy, downloadPath);
  const zipName = downloaded.subarray(30, 38).toString('latin1');
  if (downloaded.subarray(0, 4).toString('latin1') !== 'PK\u0003\u0004' || zipName !== 'mimetype') {
    fail('the download through the proxy is not an EPUB');
  }
  const copies = await listBucket('copies/');
  const stored = await Promise.all(copies.map(async (key) => ({ key, bytes: await objectBytes(key) })));
  const match = stored.find((o) => o.bytes.equals(downloaded));
  if (!match) fail(`the ${downloaded.length} bytes downloaded through the proxy are not a copy kept in the bucket (${copies.join(', ') || 'none'})`);
  const masters = await listBucket('');
  for (const instance of ['A', 'B']) {
    const local = path.join(work, `data-${instance}`, 'files');
    if (fs.existsSync(local) && fs.readdirSync(local).length) fail(`instance ${instance} kept files on its own disk: ${local}`);
  }
  // nginx's log line for the download: an instance answered (the hand-off, no body), then S3 sent the file.
  const instanceAddresses = [portA, portB].map((port) => `127.0.0.1:${port}`);
  const s3Address = new URL(env.S3_ENDPOINT).host;
  const handedOff = (line, status) => {
    const [, sent, upstreams, statuses] = / (\d{3}) "([^"]*)" "([^"]*)"/.exec(line) ?? [];
    const [app, store] = (upstreams ?? '').split(' : ');
    return sent === String(status) && instanceAddresses.includes(app) && store === s3Address && statuses === `200 : ${status}`;
  };
  const downloadLines = () => proxy.accessLog().split('\n').filter((l) => l.startsWith(`${downloadPath} `));
  const whole = await until('no access-log line of the proxy for the download', 5000, () => downloadLines()[0]);
  if (!handedOff(whole, 200)) fail(`the download was not an instance's hand-off to S3 through nginx: ${whole}`);
  // The app never sees the last byte go, so the link stays open to a resume (decision 0109), fetched from S3 too.
  const resume = await browser.request(proxy, 'GET', downloadPath, undefined, { range: 'bytes=100-199' });
  if (resume.status !== 206 || !resume.bytes.equals(downloaded.subarray(100, 200))) fail(`a resume through the proxy answered ${resume.status}`);
  const resumed = await until('no access-log line of the proxy for the resume', 5000, () => downloadLines()[1]);
  if (!handedOff(resumed, 206)) fail(`the resume was not an instance's hand-off to S3 through nginx: ${resumed}`);
  pass(`downloaded through the proxy with a link from B: ${downloaded.length} bytes from the bucket, equal to s3://${compose.S3_BUCKET}/${match.key} (${masters.length} objects in the bucket, none on the instances' disks); the instance answered with a hand-off, nginx fetched the file and a resume from S3`);

  const receipt = await until(`no receipt for ${reader.email} reached the SMTP capture`, 20_000, () =>
    smtp.mails.find((m) => m.to.includes(reader.email) && m.raw.includes('profile#library')),
  );
  if (!/WWD-[0-9A-F]{10}/.test(receipt.raw)) fail('the receipt carries no order reference');
  pass(`receipt mail for the purchase reached the SMTP capture (${smtp.mails.length} mail(s) in all)`);

  // An admin change on A is seen on B's cached public read within a second.
  const admin = session({ 'x-forwarded-for': '198.51.100.20' });
  await admin.refreshCsrf(a);
  await admin.post(a, '/api/users/login', { username: compose.ADMIN_USERNAME, password: compose.ADMIN_PASSWORD });
  await admin.refreshCsrf(a);
  const changeTagline = async (label) => {
    const current = await admin.get(a, `/api/books/${book.id}`);
    const anonymous = session();
    // B reads it first, so B holds the old answer in its cache.
    await anonymous.get(b, `/api/books/${book.id}`);
    await anonymous.get(b, `/api/books/${book.id}`);
    const tagline = `Smoke ${label} ${Date.now()}`;
    await admin.put(a, `/api/admin/books/${book.id}`, {
      title: current.title,
      tagline,
      synopsis: current.synopsis,
      coverImage: current.coverImage,
      yearPublished: current.yearPublished,
      publisher: current.publisher,
      featured: current.featured,
    });
    return seenWithin(b, book.id, tagline, 1000);
  };
  pass(`admin change on A seen on B after ${await changeTagline('first')} ms`);

  // Failed sign-ins split between A and B count against one limit.
  const limitCheck = async (address) => {
    for (let i = 0; i < ACCOUNT_FAILURES_PER_ADDRESS; i += 1) {
      const instance = i % 2 ? b : a;
      const res = await login(instance, reader.username, 'Wrong-password-1', address);
      if (res.status !== 401) fail(`failed sign-in ${i + 1} on ${instance.name} answered ${res.status}, not 401`);
    }
    for (const instance of [a, b]) {
      const res = await login(instance, reader.username, reader.password, address);
      if (res.status !== 429 || !String(res.json?.message).startsWith('Too many failed sign-in attempts.')) {
        fail(`after ${ACCOUNT_FAILURES_PER_ADDRESS} failures across A and B, ${instance.name} answered ${res.status} ${res.bytes.toString('utf8').slice(0, 200)}`);
      }
    }
  };
  await limitCheck('198.51.100.30');
  pass(`${ACCOUNT_FAILURES_PER_ADDRESS} failed sign-ins split between A and B: the next one is refused with 429 on both`);

  // Redis stops while both serve.
  await redis.stop();
  for (const instance of [a, b]) {
    await until(`${instance.name} did not report Redis unavailable`, 10_000, async () => (await readyz(instance)).body.redis === 'unavailable');
  }
  for (const [i, instance] of [a, b].entries()) {
    const r = await readyz(instance);
    if (r.status !== 200) fail(`${instance.name} /readyz answered ${r.status} without Redis`);
    for (const url of ['/api/books/featured', '/api/site', '/']) {
      const res = await session().request(instance, 'GET', url);
      if (res.status !== 200) fail(`${instance.name} ${url} answered ${res.status} without Redis`);
    }
    const signIn = await login(instance, reader.username, reader.password, `198.51.100.${40 + i}`);
    if (signIn.status !== 200) fail(`${instance.name} sign-in answered ${signIn.status} without Redis`);
  }
  assertRunning(a, b);
  pass('Redis stopped: both instances answer /readyz 200 (redis unavailable), public reads and sign-ins');

  // Redis starts again: both reconnect, resubscribe, and share clears and limits again.
  await redis.start();
  for (const instance of [a, b]) {
    await until(`${instance.name} did not reconnect to Redis`, 15_000, async () => (await readyz(instance)).body.redis === 'ok', 200);
  }
  await until('the instances did not subscribe to cache clears again', 15_000, async () => (await subscribers(redisPort)) >= 2, 200);
  pass(`Redis started again: both reconnected and resubscribed`);
  pass(`admin change on A seen on B after ${await changeTagline('after restart')} ms`);
  await limitCheck('198.51.100.50');
  pass('failed sign-ins are counted across A and B again');

  assertRunning(a, b);
  for (const instance of [a, b]) {
    const log = fs.readFileSync(instance.logFile, 'utf8');
    // A crash prints Node's version last; the Redis outage's handled warnings are expected.
    for (const sign of ['Unhandled', 'unhandledRejection', 'uncaughtException', '\nNode.js v']) {
      if (log.includes(sign)) fail(`instance ${instance.name}'s output contains "${sign.trim()}"`);
    }
  }
  pass('no unhandled error in either output');

  // compose stops both with SIGTERM: each drains, closes its connections and exits with 0.
  const exits = [a, b].map((instance) => {
    instance.child.kill('SIGTERM');
    return until(`${instance.name} did not exit within 20 s of SIGTERM`, 20_000, () => instance.exited, 100).then((exited) => {
      if (exited.code !== 0) fail(`${instance.name} exited with ${JSON.stringify(exited)} on SIGTERM`);
    });
  });
  await Promise.all(exits);
  pass('both instances exited with 0 on SIGTERM');
}

let failed = false;
const overall = setTimeout(() => {
  console.error(`smoke: FAILED: did not finish within ${TOTAL_TIMEOUT_MS / 1000} s`);
  void finish(1);
}, TOTAL_TIMEOUT_MS);

async function finish(code) {
  clearTimeout(overall);
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(`smoke: cleanup: ${error.message}`));
  if (code !== 0) {
    for (const name of ['A', 'B']) {
      const file = path.join(work, `${name}.log`);
      if (!fs.existsSync(file)) continue;
      console.error(`---- last lines of instance ${name}'s output ----`);
      console.error(fs.readFileSync(file, 'utf8').split('\n').slice(-25).join('\n'));
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGINT', () => void finish(130));
process.on('SIGTERM', () => void finish(143));
try {
  await main();
  console.log(`smoke: passed in ${elapsed()}`);
} catch (error) {
  failed = true;
  console.error(`smoke: FAILED: ${error instanceof SmokeFailure ? error.message : error.stack}`);
}
await finish(failed ? 1 : 0);
