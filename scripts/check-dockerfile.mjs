#!/usr/bin/env node
// Checks the Dockerfile without a Docker engine: reads its stages and replays them in a fresh copy of the
// repository, each stage in its own directory standing for that image's file system:
//   COPY from the build context (honouring .dockerignore) or from an earlier stage, WORKDIR, ENV, and every
//   RUN step of the build stages (npm ci, the build, the production-only install) as shell commands;
// then starts the final stage's CMD with its ENV, waits for /readyz, runs the HEALTHCHECK command, and stops
// the server with SIGTERM. It also checks what an image must promise: Node 24 base images, a non-root USER,
// a HEALTHCHECK on /readyz, and no development dependencies in the final node_modules.
// A stage from a pinned nginx image (compose's proxy) is no Node stage: it may only COPY, which is replayed
// like any other, and it must end up holding an nginx site whose `root` directories hold the built client's
// hashed files. It may not be the last stage, which is the app's image.
// The final stage's RUN steps only prepare directories and owners in the image (mkdir, chown); they are
// printed, not run, because here they would touch this machine's root. Its data directory is a temporary
// one instead. Usage: node scripts/check-dockerfile.mjs [--port 3170] [--keep]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1] || process.env.DOCKERFILE_CHECK_PORT || 3170);
const keep = args.includes('--keep');

function fail(message) {
  console.error(`check-dockerfile: ${message}`);
  process.exit(1);
}
const log = (message) => console.log(`check-dockerfile: ${message}`);

/** Instructions with line continuations joined and comments dropped. */
export function parseDockerfile(text) {
  const instructions = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!current && (line.trim().startsWith('#') || line.trim() === '')) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    const match = /^\s*(\w+)\s+([\s\S]*)$/.exec(current);
    if (match) instructions.push({ op: match[1].toUpperCase(), value: match[2].trim() });
    current = '';
  }
  return instructions;
}

function parseEnv(value) {
  const env = {};
  // KEY=value pairs (values here have no spaces or quotes; refuse anything fancier).
  for (const pair of value.split(/\s+/).filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq < 1) fail(`unsupported ENV form: ${value}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1).replace(/^"(.*)"$/, '$1');
  }
  return env;
}

function execForm(value, what) {
  try {
    const list = JSON.parse(value);
    if (Array.isArray(list) && list.every((x) => typeof x === 'string')) return list;
  } catch {
    // fall through
  }
  return fail(`${what} must use the exec form ["cmd", "arg"]: ${value}`);
}

/** The build context: tracked and untracked-but-not-ignored files, less what .dockerignore names. */
function contextFiles() {
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) fail('git ls-files failed');
  const ignoreFile = path.join(root, '.dockerignore');
  const patterns = fs.existsSync(ignoreFile)
    ? fs
        .readFileSync(ignoreFile, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const ignored = (file) =>
    patterns.some((p) => {
      if (p.startsWith('*.')) return file.endsWith(p.slice(1));
      return file === p || file.startsWith(`${p}/`);
    });
  return listed.stdout
    .split('\0')
    .filter(Boolean)
    .filter((f) => fs.existsSync(path.join(root, f)) && !ignored(f));
}

/** A pinned nginx image: compose's proxy. */
const WEB_IMAGE = /^nginx:\d+\.\d+(\.\d+)?-alpine$/;

/**
 * An nginx stage holds a site in conf.d whose `root` directories exist in the stage and hold the built
 * client's hashed scripts, so the files nginx sends itself are in its image.
 */
function checkWebStage(web) {
  const confDir = path.join(web.dir, 'etc/nginx/conf.d');
  const confs = fs.existsSync(confDir) ? fs.readdirSync(confDir).filter((f) => f.endsWith('.conf')) : [];
  if (confs.length === 0) fail(`[${web.name}] no site in /etc/nginx/conf.d`);
  const roots = confs.flatMap((f) => [...fs.readFileSync(path.join(confDir, f), 'utf8').matchAll(/^\s*root\s+(\S+);/gm)].map((m) => m[1]));
  if (roots.length === 0) fail(`[${web.name}] its site sends no files of its own (no root)`);
  for (const root of roots) {
    const assets = path.join(web.dir, root, 'assets');
    const hashed = fs.existsSync(assets) ? fs.readdirSync(assets).filter((f) => /-[\w-]{8,}\.js$/.test(f)) : [];
    if (hashed.length === 0) fail(`[${web.name}] root ${root} holds no built client (no hashed scripts in ${root}/assets)`);
    log(`[${web.name}] nginx site ${confs.join(', ')}: root ${root} holds ${hashed.length} hashed scripts`);
  }
}

function copyInto(source, target) {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (fs.statSync(source).isDirectory()) {
    // cp -a is several times faster than fs.cpSync on a node_modules tree.
    const result = spawnSync('cp', ['-a', source, target], { stdio: 'inherit' });
    if (result.status !== 0) fail(`could not copy ${source}`);
  } else {
    fs.copyFileSync(source, target);
  }
}

const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const instructions = parseDockerfile(dockerfile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dockerfile-check-'));
const context = contextFiles();
const stages = [];
let stage = null;
const started = Date.now();

// PATH for the "image": this project's pinned Node 24 stands for the node:24 base image's node.
const nodeBin = path.dirname(process.execPath);
const nodeVersion = spawnSync(process.execPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
if (!nodeVersion.startsWith('v24.')) fail(`run this with Node 24 (npm run check:dockerfile); found ${nodeVersion}`);

function inStage(p) {
  const absolute = path.posix.isAbsolute(p) ? p : path.posix.join(stage.workdir, p);
  return path.join(stage.dir, absolute);
}

for (const { op, value } of instructions) {
  if (op === 'FROM') {
    const [image, , name] = value.split(/\s+/);
    const web = WEB_IMAGE.test(image);
    if (!web && !/^node:24([.-]|$)/.test(image)) fail(`every stage must start from a Node 24 image or a pinned nginx one, got ${image}`);
    stage = { name: name ?? `stage${stages.length}`, dir: path.join(work, `stage-${stages.length}`), workdir: '/', env: {}, runs: [], user: 'root', web };
    fs.mkdirSync(stage.dir, { recursive: true });
    stages.push(stage);
    continue;
  }
  if (!stage) fail(`${op} before FROM`);
  if (stage.web && op !== 'COPY') fail(`[${stage.name}] an nginx stage may only COPY files in; found ${op}`);
  switch (op) {
    case 'WORKDIR':
      stage.workdir = path.posix.isAbsolute(value) ? value : path.posix.join(stage.workdir, value);
      fs.mkdirSync(inStage('.'), { recursive: true });
      break;
    case 'ENV':
      Object.assign(stage.env, parseEnv(value));
      break;
    case 'COPY': {
      const copyStarted = Date.now();
      const parts = value.split(/\s+/);
      const from = parts[0].startsWith('--from=') ? parts.shift().slice('--from='.length) : null;
      if (parts.some((p) => p.startsWith('--'))) fail(`unsupported COPY flag: ${value}`);
      const dest = parts.pop();
      for (const src of parts) {
        if (from) {
          const other = stages.find((s) => s.name === from);
          if (!other) fail(`COPY --from=${from}: no such stage`);
          const source = path.join(other.dir, path.posix.isAbsolute(src) ? src : path.posix.join(other.workdir, src));
          if (!fs.existsSync(source)) fail(`COPY --from=${from} ${src}: not found in that stage`);
          const target = dest.endsWith('/') || dest === '.' ? path.join(inStage(dest), path.basename(src)) : inStage(dest);
          copyInto(source, target);
        } else if (src === '.') {
          for (const file of context) copyInto(path.join(root, file), path.join(inStage(dest), file));
        } else {
          if (!context.includes(src)) fail(`COPY ${src}: not in the build context`);
          const target = dest.endsWith('/') || dest === '.' || parts.length > 1 ? path.join(inStage(dest), path.basename(src)) : inStage(dest);
          copyInto(path.join(root, src), target);
        }
      }
      if (Date.now() - copyStarted > 2000) log(`[${stage.name}] COPY ${value} took ${((Date.now() - copyStarted) / 1000).toFixed(1)} s`);
      break;
    }
    case 'RUN':
      stage.runs.push(value);
      if (stages.length > 0 && instructions.filter((i) => i.op === 'FROM').length === stages.length) {
        // The final stage: directory set-up only, reported below.
        if (!/^(mkdir|chown|install -d)\b[\w\s/:&.-]*$/.test(value)) {
          fail(`the final stage may only prepare directories in RUN (mkdir/chown); found: ${value}`);
        }
        log(`final stage, not run here (image file system set-up): RUN ${value}`);
        break;
      }
      {
        log(`[${stage.name}] RUN ${value}`);
        const t0 = Date.now();
        const result = spawnSync('sh', ['-c', value], {
          cwd: inStage('.'),
          stdio: 'inherit',
          // Packages come from the local npm cache when it has them (CI's own install has just filled it).
          env: { ...process.env, ...stage.env, PATH: `${nodeBin}:${process.env.PATH}`, npm_config_prefer_offline: 'true' },
        });
        if (result.status !== 0) fail(`[${stage.name}] RUN ${value} exited with ${result.status}`);
        log(`[${stage.name}] done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      }
      break;
    case 'USER':
      stage.user = value;
      break;
    case 'HEALTHCHECK':
      stage.healthcheck = value;
      break;
    case 'CMD':
      stage.cmd = execForm(value, 'CMD');
      break;
    case 'EXPOSE':
    case 'VOLUME':
    case 'LABEL':
    case 'ARG':
      break;
    default:
      fail(`unsupported instruction ${op}`);
  }
}

const final = stages.at(-1);
if (final?.web) fail("the last stage must be the app's image, not the nginx one");
for (const web of stages.filter((st) => st.web)) checkWebStage(web);
if (!final?.cmd) fail('the final stage has no CMD');
if (final.user === 'root' || final.user === '0') fail('the final stage must run as a non-root USER');
if (!final.healthcheck || !final.healthcheck.includes('/readyz')) fail('the final stage needs a HEALTHCHECK on /readyz');
const healthcheck = execForm(final.healthcheck.replace(/^(--\S+\s+)*CMD\s+/, ''), 'HEALTHCHECK CMD');

// Production dependencies only: none of the development-only packages may be in the final image.
const appDir = path.join(final.dir, final.workdir);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const devOnly = Object.keys(pkg.devDependencies ?? {}).filter((name) => !(name in (pkg.dependencies ?? {})));
for (const name of ['vitest', 'eslint', 'typescript', '@playwright/test', 'vite']) {
  if (devOnly.includes(name) && fs.existsSync(path.join(appDir, 'node_modules', name))) {
    fail(`development dependency ${name} is in the final image`);
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dockerfile-check-data-'));
const env = {
  ...process.env,
  ...final.env,
  PATH: `${nodeBin}:${process.env.PATH}`,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  // What an operator sets for a production container (README "Deployment").
  SESSION_SECRET: 'dockerfile-check-session-secret-0123456789abcdef',
  ALLOW_TEST_PAYMENTS: 'true',
  LOG_LEVEL: 'warn',
};
for (const key of ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'METRICS_TOKEN']) delete env[key];
log(`starting: ${final.cmd.join(' ')} (NODE_ENV=${env.NODE_ENV}) on port ${port}`);
const server = spawn(final.cmd[0], final.cmd.slice(1), { cwd: appDir, env, stdio: ['ignore', 'inherit', 'inherit'] });
let exited = null;
server.on('exit', (code, signal) => {
  exited = { code, signal };
});

async function cleanUp() {
  if (!keep) {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const deadline = Date.now() + 90_000;
let ready = false;
while (Date.now() < deadline && !exited) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    if (res.status === 200) {
      log(`/readyz: ${res.status} ${await res.text()}`);
      ready = true;
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 500));
}
if (!ready) {
  server.kill('SIGKILL');
  await cleanUp();
  fail(exited ? `the server exited (${JSON.stringify(exited)}) before /readyz answered` : '/readyz did not answer 200 in 90 s');
}

const home = await fetch(`http://127.0.0.1:${port}/`);
if (home.status !== 200) fail(`GET / answered ${home.status}`);
const probe = spawnSync(healthcheck[0], healthcheck.slice(1), { cwd: appDir, env, encoding: 'utf8', timeout: 10_000 });
if (probe.status !== 0) fail(`the HEALTHCHECK command exited with ${probe.status}: ${probe.stderr}`);
log('HEALTHCHECK command: healthy');

server.kill('SIGTERM');
const stopStarted = Date.now();
const stopDeadline = Date.now() + 20_000;
while (!exited && Date.now() < stopDeadline) await new Promise((r) => setTimeout(r, 100));
if (!exited) {
  server.kill('SIGKILL');
  fail('the server did not stop within 20 s of SIGTERM');
}
if (exited.code !== 0) fail(`the server stopped with ${JSON.stringify(exited)} after SIGTERM`);
log(`stopped ${((Date.now() - stopStarted) / 1000).toFixed(1)} s after SIGTERM`);
await cleanUp();
log(`passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
