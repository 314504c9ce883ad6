/**
 * The built server (`npm run build`) started as operators start it, on the scale database, so that what
 * the benchmark reads of memory and event-loop delay is the server's alone: an in-process app would hold
 * every answer it was asked for, and the benchmark's own work would count as the server's.
 * bench/loop-monitor.mjs runs inside it and reports its event-loop delay and peak RSS on request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export interface ServerSample {
  loopMaxMs: number;
  rssMB: number;
  peakRssMB: number;
}

export interface ServedSite {
  /** Reads a route to its end, counting bytes as they arrive (the answer is never held whole). */
  get(route: string, bearer?: string): Promise<{ status: number; bytes: number; ms: number }>;
  /** The server's figures since the last sample (the first call starts the window). */
  sample(): Promise<ServerSample>;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

export async function startServedSite(databaseUrl: string, port: number): Promise<ServedSite> {
  const main = path.join(root, 'dist', 'server', 'main.js');
  if (!fs.existsSync(main)) throw new Error('bench:scale --served starts the built server: run `npm run build` first');
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-scale-served-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', path.join(root, 'bench', 'loop-monitor.mjs'), main], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'scale-benchmark-session-secret-of-enough-length',
      LOG_LEVEL: 'warn',
      // No payment is made here; the test payment page only lets the production start go ahead.
      ALLOW_TEST_PAYMENTS: 'true',
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForReady(base, exited);

  const get = async (route: string, bearer?: string) => {
    const at = performance.now();
    const res = await fetch(`${base}${route}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
    let bytes = 0;
    const reader = res.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) bytes += part.value.byteLength;
    return { status: res.status, bytes, ms: performance.now() - at };
  };
  const sample = () =>
    new Promise<ServerSample>((resolve) => {
      child.once('message', (figures) => resolve(figures as ServerSample));
      child.send('sample');
    });
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { get, sample, stop };
}

async function waitForReady(base: string, exited: Promise<void>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !gone) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(gone ? 'the built server exited before it was ready' : 'the built server was not ready in 2 minutes');
}
