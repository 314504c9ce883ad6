// Starts the built site (dist/) on a fresh data directory for a benchmark, and stops it afterwards.
// Options: `prefix` runs it under another command (e.g. taskset), `nodeArgs` go to node after `npm start`'s own flags (e.g. --import),
// `ipc` opens a message channel to the server process; `dataDir` reuses a data directory, `keepData` keeps it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The node flags operators start the server with: those of `npm start` (the image's CMD has the same), such as
 * the young generation's fixed size (decision 0106). Without them a benchmark would measure another process.
 */
export const OPERATOR_NODE_ARGS = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  .scripts.start.split(' ')
  .filter((word) => word.startsWith('--'));

export async function startBuiltSite({ port, env = {}, name = 'bench', prefix = [], nodeArgs = [], ipc = false, quiet = false, dataDir: existing, keepData = false }) {
  if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/client/index.html')) {
    console.error('The site is not built: run `npm run build` first.');
    process.exit(2);
  }
  const dataDir = existing ?? fs.mkdtempSync(path.join(os.tmpdir(), `site-${name}-`));
  const base = `http://127.0.0.1:${port}`;
  const command = [...prefix, process.execPath, ...OPERATOR_NODE_ARGS, ...nodeArgs, 'dist/server/main.js'];
  const server = spawn(command[0], command.slice(1), {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: [quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit', 'inherit', ...(ipc ? ['ipc'] : [])],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(base);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop, process: server, pid: server.pid, dataDir };
}

/** Polls /readyz every `intervalMs` for up to a minute. */
export async function waitReady(base, intervalMs = 250) {
  for (let i = 0; i < 60_000 / intervalMs; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error('server did not become ready');
}
