// Starts the built site (dist/) on a fresh data directory for a benchmark, and stops it afterwards.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export async function startBuiltSite({ port, env = {}, name = 'bench' }) {
  if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/client/index.html')) {
    console.error('The site is not built: run `npm run build` first.');
    process.exit(2);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `site-${name}-`));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: 'inherit',
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(base);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop, pid: server.pid, dataDir };
}

export async function waitReady(base) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not become ready');
}
