// `npm start`: builds only when the sources changed since the last build (or dist/ is missing or
// incomplete), then runs the server in this same process, so a restart on an unchanged checkout is quick.
import { spawnSync } from 'node:child_process';
import nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsCurrent } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!buildIsCurrent()) {
  console.log('Sources changed since the last build (or no build yet): building...');
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// Node keeps the compiled code of the server and its packages on disk: a restart skips most compiling.
// (Node 22.1 and later; on older versions the server starts without it.)
nodeModule.enableCompileCache?.(path.join(root, 'node_modules', '.cache', 'node-compile'));
await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
