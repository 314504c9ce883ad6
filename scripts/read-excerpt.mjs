// Reads the chapter excerpt ("The Return") out of the seed content module, so the sample files are
// built from the same text the site shows.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CONTENT_TS = resolve(root, 'src/server/db/seed/content.ts');

/** Pulls `excerpt: { title, chapter, paragraphs: [...] }` out of content.ts. */
export function readExcerpt(file = CONTENT_TS) {
  const src = readFileSync(file, 'utf8');
  const start = src.indexOf('excerpt: {');
  if (start < 0) throw new Error('excerpt block not found in content.ts');
  const title = /title:\s*'([^']*)'/.exec(src.slice(start))?.[1];
  const chapter = /chapter:\s*'([^']*)'/.exec(src.slice(start))?.[1];
  const p0 = src.indexOf('paragraphs: [', start);
  const open = src.indexOf('[', p0);
  let depth = 0;
  let end = open;
  let quote = null;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      end = i;
      break;
    }
  }
  // The slice is a plain array literal of string literals from our own source file.
  const paragraphs = new Function(`return ${src.slice(open, end + 1)};`)();
  if (!title || !chapter || !Array.isArray(paragraphs) || paragraphs.length === 0) {
    throw new Error('could not parse the excerpt from content.ts');
  }
  return { title, chapter, paragraphs };
}
