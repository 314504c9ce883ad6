import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type TestApp, createTestApp } from '../../test/helpers';
import { fillOutbox } from '../../test/large-outbox';
import { askRunningServer, startControlSocket } from '../operations/control-socket';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const root = path.resolve(__dirname, '../../../..');

describe('backups of a large site', () => {
  /** The child's heap: a backup or restore that held the rows in memory cannot fit in it. */
  const HEAP_MB = 96;
  // ~8 KB a mail: 320 MB of rows on PostgreSQL, over three times the heap. PGlite builds and reads the
  // rows on the child's own thread, so it gets fewer (128 MB, still more than the whole heap) to keep the
  // test to about a minute.
  const ROWS = onPostgres ? 40_000 : 16_000;

  it('backs up and restores a mail outbox larger than the heap of the process doing it, row for row', async () => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', 'src/server/platform/storage/backup-large-child.ts'], {
      cwd: root,
      env: { ...process.env, LARGE_ROWS: String(ROWS), LARGE_WIDTH: '4000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr.slice(-3000)).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    // The data really is larger than the heap...
    expect(result.before.rows).toBe(ROWS);
    expect(result.before.chars).toBe(ROWS * 8000);
    expect(result.before.chars).toBeGreaterThan(HEAP_MB * 1048576 * (onPostgres ? 3 : 1.2));
    // ...every mail came back byte for byte, and the heap stayed far below its limit all along.
    expect(result.after).toEqual(result.before);
    expect(result.peakHeapMB).toBeLessThan(HEAP_MB);
  }, 300_000);
});

/** Polls the URL in argv until stdin closes, then prints each request's milliseconds (-1 for a non-200). */
const HEALTH_MONITOR = `
const url = process.argv[1];
let stop = false;
process.stdin.on('end', () => (stop = true)).resume();
(async () => {
  await (await fetch(url)).text(); // the first fetch loads the HTTP client: not the site's time
  process.stdout.write('ready\\n');
  const waits = [];
  while (!stop) {
    const start = performance.now();
    const response = await fetch(url);
    await response.text();
    waits.push(response.status === 200 ? Math.round(performance.now() - start) : -1);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(JSON.stringify(waits) + '\\n');
})();
`;

describe('a backup taken by the running site', () => {
  let t: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bk-'));

  beforeAll(async () => {
    t = await createTestApp();
    // Enough that the backup takes seconds: a backup that read it in one go would stall the site for them.
    await fillOutbox(t.database, onPostgres ? 20_000 : 6_000);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps /healthz answering within 200 ms while it writes the archive', async () => {
    const control = await startControlSocket(dir, { database: t.database, files: t.app.deps.files, log: { info() {}, error() {} } });
    // A monitor of its own, as a health checker is: it asks /healthz every 20 ms until told to stop.
    const port = (t.app.server.address() as AddressInfo).port;
    const monitor = spawn(process.execPath, ['-e', HEALTH_MONITOR, `http://127.0.0.1:${port}/healthz`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let report = '';
    monitor.stdout.on('data', (c) => (report += c));
    const exited = new Promise((resolve) => monitor.on('close', resolve));
    try {
      while (!report.includes('ready\n')) await new Promise((resolve) => setTimeout(resolve, 20));
      const out = path.join(dir, 'site.tar.gz');
      // As `npm run backup` does against a PGlite site: the running server writes the archive itself.
      expect(await askRunningServer(dir, { command: 'backup', out })).toMatchObject({ ok: true });
      expect(fs.statSync(out).size).toBeGreaterThan(0);
    } finally {
      monitor.stdin.end();
      await exited;
      await control.close();
    }
    const waits = JSON.parse(report.split('\n')[1]) as number[];
    // The backup lasted long enough to be watched, and the site answered (200) all along, quickly.
    expect(waits.length).toBeGreaterThanOrEqual(10);
    expect(waits.every((ms) => ms >= 0)).toBe(true);
    expect(Math.max(...waits)).toBeLessThan(200);
  }, 120_000);
});
