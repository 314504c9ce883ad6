// Compiles the optional native sendfile module (src/server/native/sendfile.c) into dist/native/. It needs
// a C compiler and Node's headers; without them the build goes on and downloads are streamed instead.
// Usage: node scripts/build-native.mjs [output directory]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SENDFILE_SOURCE = path.join(root, 'src/server/native/sendfile.c');
const DEFAULT_OUT_DIR = path.join(root, 'dist', 'native');

/** Where Node's own headers are: beside the binary in the official and the Debian layouts. */
function nodeHeaders() {
  const candidates = [
    process.env.npm_config_nodedir && path.join(process.env.npm_config_nodedir, 'include', 'node'),
    path.join(path.dirname(process.execPath), '..', 'include', 'node'),
  ].filter(Boolean);
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'node_api.h'))) ?? null;
}

/** Builds sendfile.node into `outDir`; returns its path, or null with the reason when it cannot. */
export function buildSendfile(outDir = DEFAULT_OUT_DIR) {
  if (process.platform !== 'linux') return { file: null, reason: 'sendfile(2) is used on Linux only' };
  const headers = nodeHeaders();
  if (!headers) return { file: null, reason: "Node's headers (node_api.h) were not found" };
  const compiler = process.env.CC ?? 'cc';
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'sendfile.node');
  const args = ['-O2', '-std=c11', '-D_GNU_SOURCE', '-Wall', '-Werror', '-shared', '-fPIC', `-I${headers}`, '-DNODE_GYP_MODULE_NAME=sendfile', '-o', file, SENDFILE_SOURCE, '-pthread'];
  const result = spawnSync(compiler, args, { encoding: 'utf8' });
  if (result.error) return { file: null, reason: `no C compiler (${compiler}): ${result.error.message}` };
  if (result.status !== 0) return { file: null, reason: `${compiler} failed: ${result.stderr.trim()}` };
  return { file, reason: null };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? DEFAULT_OUT_DIR;
  const { file, reason } = buildSendfile(outDir);
  if (file) console.log(`native sendfile module: ${path.relative(root, file)}`);
  else {
    fs.rmSync(path.join(outDir, 'sendfile.node'), { force: true });
    console.log(`native sendfile module not built (${reason}): downloads will be streamed`);
  }
}
