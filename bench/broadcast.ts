// Broadcast benchmark (npm run bench:broadcast): a newsletter broadcast to BENCH_SUBSCRIBERS (100,000)
// generated confirmed subscribers, sent by BENCH_INSTANCES (1) real server processes on one PostgreSQL
// database, into a local SMTP sink that counts and discards. Reports mails per second (in all and per
// instance), each instance's RSS when idle and at its peak while sending (the goal: growth under 100 MB),
// and, measured in the same run as the baseline, how fast one plain process sends the same kind of mail
// straight to the same sink with the same number of mails in flight, so the figure reads as a ratio on a
// shared machine. Needs PostgreSQL: BENCH_DATABASE_URL (a server URL; a scratch database is created and
// dropped), default postgres://postgres@127.0.0.1:5432/postgres. Writes bench/reports/broadcast.json.
// Not part of CI: at the full size it sends for minutes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { PARALLEL_SENDERS } from '../src/server/features/newsletter/broadcast-delivery';
import { SMTP_POOL_CONNECTIONS } from '../src/server/platform/mail/mail';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const BASELINE_MAILS = Math.min(SUBSCRIBERS, 5_000);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { username: 'benchauthor', email: 'author@bench.example', password: 'Bench-author-pass-1' };
const mb = (bytes: number) => Math.round(bytes / 1048576);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const SERVER_FLAGS = process.env.BENCH_SERVER_FLAGS ?? '--max-semi-space-size=16';

/**
 * Where an instance's memory is, from its /metrics: the V8 heap in use (what is live, beside the RSS that
 * also holds garbage), the heap V8 has reserved, its new and old spaces, and memory outside the heap.
 */
async function memoryOf(port: number) {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
  const read = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    heapUsed: read(/^nodejs_heap_size_used_bytes (\S+)$/m),
    heapTotal: read(/^nodejs_heap_size_total_bytes (\S+)$/m),
    newSpace: read(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)$/m),
    oldSpace: read(/^nodejs_heap_space_size_total_bytes\{space="old"\} (\S+)$/m),
    external: read(/^nodejs_external_memory_bytes (\S+)$/m),
  };
}
const heapUsedOf = async (port: number) => (await memoryOf(port)).heapUsed;

/** An SMTP server that accepts everything, keeps nothing and counts messages. */
async function sink() {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // No reverse DNS lookup per connection: the sink must not be what is measured.
    disableReverseLookup: true,
    onData(stream, _session, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        count += 1;
        cb();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    get count() {
      return count;
    },
    reset: () => (count = 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The resident set of a process, from the kernel (what an operator's `ps` shows). */
function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** A signed-in admin over HTTP: cookies kept between calls, the CSRF token sent on writes. */
function adminClient(base: string) {
  const cookies = new Map<string, string>();
  let csrf = '';
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(json)}`);
    return json ?? {};
  };
  return {
    call,
    async signIn() {
      csrf = String((await call('GET', '/api/csrf-token')).csrfToken);
      await call('POST', '/api/users/login', { username: ADMIN.username, password: ADMIN.password });
      csrf = String((await call('GET', '/api/csrf-token')).csrfToken);
    },
  };
}

/**
 * The baseline: one plain process sending the same mail straight to the sink, with as many mails in flight
 * and as many kept connections as the site, and nothing else (no database, no outbox).
 */
async function baseline(smtpUrl: string): Promise<number> {
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: SMTP_POOL_CONNECTIONS, maxMessages: 1000 });
  const body = '<p>The second book is out. Here is the first chapter.</p>'.repeat(20);
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < BASELINE_MAILS) {
      const n = next++;
      await transport.sendMail({ from: 'author@bench.example', to: `base${n}@bench.example`, subject: 'Baseline', html: body, text: body.replace(/<[^>]+>/g, '') });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_SENDERS }, worker));
  transport.close();
  return BASELINE_MAILS / ((performance.now() - start) / 1000);
}

async function main() {
  const name = `bench_broadcast_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template template0`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const smtp = await sink();
  const children: Array<{ child: ChildProcess; port: number; dataDir: string }> = [];
  try {
    const baselineRate = await baseline(smtp.url);
    smtp.reset();
    console.log(`baseline: one process, ${PARALLEL_SENDERS} in flight on ${SMTP_POOL_CONNECTIONS} kept connections, ${BASELINE_MAILS} mails: ${baselineRate.toFixed(0)} mails/s`);

    for (let i = 0; i < INSTANCES; i++) {
      const port = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-broadcast-'));
      // The built server, as operators run it (npm start); the sources through tsx when there is no build.
      const entry = fs.existsSync('dist/server/main.js') ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'];
      // BENCH_SERVER_FLAGS: node flags for the instances, such as a heap limit to tell garbage from growth;
      // by default the flags `npm start` and the image start the server with (decision 0106).
      entry.unshift(...SERVER_FLAGS.split(' ').filter(Boolean));
      const child = spawn(process.execPath, entry, {
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          SESSION_SECRET: 'bench-session-secret-of-enough-length-0123',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SMTP_URL: smtp.url,
          ALLOW_TEST_PAYMENTS: 'true',
          METRICS_TOKEN: METRICS_TOKEN,
          LOG_LEVEL: 'warn',
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push({ child, port, dataDir });
      const deadline = Date.now() + 120_000;
      while (!(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false))) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`instance ${i + 1} did not start`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    const db = new pg.Client({ connectionString: databaseUrl });
    db.on('error', () => undefined);
    await db.connect();
    await db.query(
      `insert into newsletter_subscribers (email, state, source, confirmed_at)
       select 'reader' || n || '@bench.example', 'confirmed', 'import', now() from generate_series(1, $1::int) n`,
      [SUBSCRIBERS],
    );
    await db.end();

    // Warm: the admin has signed in, written the broadcast and sent a test, so the code of those paths
    // is loaded on the first instance before its idle size is read. Idle: the list in place, nothing sending.
    const client = adminClient(`http://127.0.0.1:${children[0].port}`);
    await client.signIn();
    const created = await client.call('POST', '/api/admin/broadcasts', {
      subject: 'Book two is out',
      previewText: 'The first chapter inside',
      body: '<p>The second book is out. Here is the first chapter.</p>'.repeat(20),
      audience: { kind: 'all' },
    });
    await client.call('GET', `/api/admin/broadcasts/${created.id}`);
    await client.call('POST', `/api/admin/broadcasts/${created.id}/test`, {});
    while (smtp.count < 1) await new Promise((r) => setTimeout(r, 100));
    smtp.reset();
    await new Promise((r) => setTimeout(r, 3000));
    const idle = children.map(({ child }) => rssOf(child.pid!));
    const idleHeap = await Promise.all(children.map(({ port }) => heapUsedOf(port)));
    console.log(`idle: RSS ${idle.map(mb).join(', ')} MB; heap in use ${idleHeap.map(mb).join(', ')} MB`);
    const peakHeap = [...idleHeap];
    const peak = [...idle];
    const sampler = setInterval(() => {
      children.forEach(({ child }, i) => {
        try {
          peak[i] = Math.max(peak[i], rssOf(child.pid!));
        } catch {
          // The process has gone; its last sample stands.
        }
      });
    }, 200);

    const start = performance.now();
    await client.call('POST', `/api/admin/broadcasts/${created.id}/send`, {});
    const limit = Date.now() + Math.max(600_000, SUBSCRIBERS * 20);
    let lastLog = 0;
    while (smtp.count < SUBSCRIBERS && Date.now() < limit) {
      await new Promise((r) => setTimeout(r, 250));
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        const memories = await Promise.all(children.map(({ port }) => memoryOf(port).catch(() => null)));
        memories.forEach((m, i) => (peakHeap[i] = Math.max(peakHeap[i], m?.heapUsed ?? 0)));
        const shown = memories.map((m, i) =>
          m
            ? `RSS ${mb(rssOf(children[i].child.pid!))}, heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)} (new ${mb(m.newSpace)}, old ${mb(m.oldSpace)}), external ${mb(m.external)}`
            : 'gone',
        );
        console.log(`  ${smtp.count} / ${SUBSCRIBERS} sent; MB: ${shown.join(' | ')}`);
      }
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    if (smtp.count < SUBSCRIBERS) throw new Error(`only ${smtp.count} of ${SUBSCRIBERS} mails arrived`);

    const rate = SUBSCRIBERS / seconds;
    const report = {
      measuredAt: new Date().toISOString(),
      subscribers: SUBSCRIBERS,
      instances: INSTANCES,
      serverFlags: SERVER_FLAGS,
      loadAverage: os.loadavg().map((n) => +n.toFixed(1)),
      cpus: os.cpus().length,
      seconds: +seconds.toFixed(1),
      mailsPerSecond: +rate.toFixed(1),
      mailsPerSecondPerInstance: +(rate / INSTANCES).toFixed(1),
      baselineMailsPerSecond: +baselineRate.toFixed(1),
      ratioToBaseline: +(rate / INSTANCES / baselineRate).toFixed(2),
      instancesRss: children.map((_, i) => ({ idleMB: mb(idle[i]), peakMB: mb(peak[i]), growthMB: mb(peak[i] - idle[i]) })),
      // Sampled every 10 s: the live heap beside the RSS, which also holds garbage not yet collected.
      instancesHeap: children.map((_, i) => ({ idleMB: mb(idleHeap[i]), peakSampledMB: mb(peakHeap[i]) })),
      goal: { rssGrowthMB: 100 },
      pass: children.every((_, i) => peak[i] - idle[i] < 100 * 1048576),
    };
    fs.writeFileSync('bench/reports/broadcast.json', `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    for (const { child, dataDir } of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await smtp.close();
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
