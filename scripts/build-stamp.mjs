// The build stamp: a hash of everything the build reads, written into dist/ after each build, so
// `npm start` can tell whether dist/ is still the build of the sources in front of it.
// `node scripts/build-stamp.mjs write` records the stamp of the current sources.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Build inputs: sources (tests excluded, they are not built), static files, and the build's own settings. */
const INPUTS = ['src', 'public', 'scripts', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const STAMP = path.join(root, 'dist', '.build-stamp');
/** What a complete build leaves behind. */
const OUTPUTS = ['dist/server/main.js', 'dist/client/index.html', 'dist/server-render/entry-server.js'];

function files(rel) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [rel];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

export function sourceStamp() {
  const hash = createHash('sha256');
  for (const rel of INPUTS.flatMap(files).sort()) {
    hash.update(rel.split(path.sep).join('/'));
    hash.update('\0');
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when dist/ is a complete build of exactly these sources. */
export function buildIsCurrent() {
  if (!OUTPUTS.every((p) => fs.existsSync(path.join(root, p)))) return false;
  if (!fs.existsSync(STAMP)) return false;
  return fs.readFileSync(STAMP, 'utf8').trim() === sourceStamp();
}

export function writeStamp() {
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  fs.writeFileSync(STAMP, `${sourceStamp()}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === 'write') {
  writeStamp();
}
