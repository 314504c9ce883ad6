import fs from 'node:fs';
import path from 'node:path';

/** Walks up from `start` to the folder holding package.json; works from src/ (tsx) and dist/ (bundle). */
export function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
