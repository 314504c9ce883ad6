import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app';
import { drainThenClose } from './platform/operations/drain';
import { createTestDatabase, testConfig } from './test/helpers';

/**
 * A GET over a pooled keep-alive agent: status, Connection header and body, or the socket error.
 * `onHeaders` is told when the answer's headers have arrived.
 */
function get(agent: http.Agent, port: number, pathName: string, onHeaders?: () => void) {
  return new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathName, agent }, (res) => {
      onHeaders?.();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks /readyz and /healthz through the agent for `ms` (several at once, so the pool holds more than one
 * socket): every answer must arrive (no ECONNRESET), /readyz with 503 and the others with 200.
 */
async function askDuringDrain(agent: http.Agent, port: number, ms: number) {
  const until = Date.now() + ms;
  let answers = 0;
  while (Date.now() < until) {
    const [ready, health, other] = await Promise.all([
      get(agent, port, '/readyz'),
      get(agent, port, '/healthz'),
      get(agent, port, '/api/books'),
    ]);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'unavailable', message: 'shutting down' });
    expect(health.status).toBe(200);
    expect(other.status).toBe(200);
    // Each answer closes its connection, so no pooled socket is left for the server to cut later.
    for (const r of [ready, health, other]) expect(r.connection).toBe('close');
    answers += 3;
    // The checker's own pace between rounds, not a wait for the server.
    await pause(40);
  }
  return answers;
}

describe('graceful shutdown', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('finishes a request in flight before the server closes, and takes no new ones', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const config = testConfig();
    const app = await buildApp({ config, database, logger: false });
    // A slow request: it is in the handler until the test lets it finish.
    let arrived!: () => void;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    app.get('/api/test-slow', async () => {
      arrived();
      await finished;
      return { finished: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    const inFlight = fetch(`http://127.0.0.1:${port}/api/test-slow`);
    await inHandler;
    const closing = app.close();
    // The request finishes only once the server has stopped listening.
    await vi.waitFor(() => expect(app.server.listening).toBe(false), { timeout: 5000, interval: 10 });
    finish();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('a keep-alive answer that began before the close (a long download) lets the close finish when it ends', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const app = await buildApp({ config: testConfig(), database, logger: false });
    const body = new PassThrough();
    app.get('/api/test-slow-body', (_request, reply) => {
      body.write('first part, ');
      return reply.type('text/plain').send(body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const agent = new http.Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());

    let headersIn!: () => void;
    const headers = new Promise<void>((resolve) => (headersIn = resolve));
    const download = get(agent, port, '/api/test-slow-body', headersIn);
    await headers;
    const started = Date.now();
    const closing = app.close();
    // The download ends once the server has stopped listening.
    await vi.waitFor(() => expect(app.server.listening).toBe(false), { timeout: 5000, interval: 10 });
    body.end('last part');
    const answer = await download;
    // Its headers went out before the close: the connection was offered for reuse.
    expect(answer).toMatchObject({ status: 200, connection: 'keep-alive', body: 'first part, last part' });
    await closing;
    // Not the 72 s keep-alive timeout: the connection is closed as soon as the answer is over.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('drains: /readyz answers 503 at once, other requests on pooled keep-alive sockets still succeed, then the port closes', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    cleanups.push(() => agent.destroy());
    // Fill the pool with idle keep-alive sockets from before the drain.
    const before = await Promise.all([1, 2, 3].map(() => get(agent, port, '/readyz')));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(before[0].connection).toBe('keep-alive');

    const started = Date.now();
    const closed = drainThenClose(app, 2000);
    expect(await askDuringDrain(agent, port, 1000)).toBeGreaterThan(6);
    await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    await expect(get(agent, port, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 90_000);

  it('closes idle pooled sockets early in the drain: 20 keep-alive clients that honour Connection: close see no reset', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // Twenty clients, each with its own keep-alive pool (as a balancer keeps per-backend connections).
    // Node's agent honours Connection: close: a socket answered with it is not used again.
    const clients = Array.from({ length: 20 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    cleanups.push(() => clients.forEach((agent) => agent.destroy()));
    // Each client's pooled socket from before the drain, and when the server closed it.
    const closedAt: number[] = [];
    await Promise.all(
      clients.map(
        (agent) =>
          new Promise<void>((resolve, reject) => {
            http
              .get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
                expect(res.headers.connection).toBe('keep-alive');
                res.socket.once('close', () => closedAt.push(Date.now()));
                res.resume();
                res.on('end', () => resolve());
              })
              .on('error', reject);
          }),
      ),
    );

    const started = Date.now();
    const drainMs = 3000;
    const closed = drainThenClose(app, drainMs);
    // Every pooled socket from before is closed by the server early in the drain, while the clients are
    // idle: not left until the end of the drain, when a client may be sending on it.
    while (closedAt.length < 20 && Date.now() - started < drainMs / 2) await pause(10);
    expect(closedAt).toHaveLength(20);
    // The clients send for the first half of the drain (until their balancer has seen /readyz fail): each
    // request goes out on a new connection and is answered, never reset.
    const errors: string[] = [];
    const answers: Array<{ status: number; connection?: string }> = [];
    await Promise.all(
      clients.map(async (agent, i) => {
        while (Date.now() - started < drainMs / 2) {
          // Each client's own pace between requests, not a wait for the server.
          await pause(10 + ((i * 7) % 40));
          await get(agent, port, i % 4 === 0 ? '/api/books' : '/healthz').then(
            (answer) => answers.push(answer),
            (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message),
          );
        }
      }),
    );
    expect(errors).toEqual([]);
    expect(answers.length).toBeGreaterThan(40);
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, connection: 'close' });

    await closed;
    await expect(get(clients[0], port, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  }, 90_000);

  it('exits cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-shutdown-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = 3400 + Math.floor(Math.random() * 500);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_OPTIONS: '', SHUTDOWN_DRAIN_MS: '3000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    let ready = false;
    while (!ready && Date.now() < deadline) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
      if (!ready) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ready).toBe(true);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    cleanups.push(() => agent.destroy());
    expect((await get(agent, port, '/readyz')).status).toBe(200);
    child.kill('SIGTERM');
    // The drain has begun once the server has closed the agent's idle pooled socket.
    const drainStarted = Date.now() + 10_000;
    while (Object.values(agent.freeSockets).flat().length > 0 && Date.now() < drainStarted) await pause(10);
    expect(Object.values(agent.freeSockets).flat()).toEqual([]);
    // The drain lasts 3 s: ask for part of it, then the process closes the port and exits.
    expect(await askDuringDrain(agent, port, 1200)).toBeGreaterThan(3);
    expect(await exited).toBe(0);
    await expect(get(agent, port, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(output).toContain('SIGTERM received: draining for 3000 ms');
  }, 90_000);
});
