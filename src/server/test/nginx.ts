import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../project-root';
import { freePort } from './ports';

/** The nginx binary on this machine, or null (CI installs it; locally the tests that need it are skipped). */
export function nginxBinary(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v nginx || command -v /usr/sbin/nginx'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

export interface RunningNginx {
  base: string;
  close(): Promise<void>;
}

/**
 * deploy/nginx.conf itself in a plain nginx process: its app servers pointed at `appPort`, its files
 * volume at `files`, the built client at `client` and its S3 store at `s3` (an endpoint URL), listening on a
 * free local port. Without `s3` the store is a local port nothing listens on: nginx must resolve the
 * compose host name it names at start.
 */
export async function startDeployNginx(
  binary: string,
  appPort: number,
  dirs: { files: string; client: string; s3?: string },
): Promise<RunningNginx> {
  const root = findProjectRoot(path.dirname(new URL(import.meta.url).pathname));
  const port = await freePort();
  const site = fs
    .readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8')
    .replace(/server\s+app\d+:\d+/g, `server 127.0.0.1:${appPort}`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('alias /srv/site-files/;', `alias ${dirs.files}/;`)
    .replace('root /srv/site-client;', `root ${dirs.client};`)
    .replace('proxy_pass http://minio:9000/;', `proxy_pass ${dirs.s3 ?? 'http://127.0.0.1:9'}/;`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-nginx-'));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${dir}/${k};`).join('\n');
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    // The files are the app's alone (mode 0600): the workers must run as their owner, as in a deployment.
    `user ${os.userInfo().username};\nworker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 64; }\nhttp {\naccess_log off;\n${temp}\n${site}\n}\n`,
  );
  const child: ChildProcess = spawn(binary, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-500)}`);
    const up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error('nginx did not answer within 10 s');
    // Polled: nginx says nothing when it is ready.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
