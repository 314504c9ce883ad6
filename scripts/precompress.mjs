// Writes name.br and name.gz beside each text file of the built client (scripts, styles, HTML, SVG,
// JSON, XML, text), at the best compression, so the server sends them as they are and compresses
// nothing per request. A compressed form that saves nothing is not written.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = process.argv[2] ?? 'dist/client';
const TEXT = /\.(js|mjs|css|html|svg|json|xml|txt|webmanifest|map)$/i;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for (const file of files(root)) {
  const data = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gz = zlib.gzipSync(data, { level: 9 });
  if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
  count++;
  before += data.length;
  after += Math.min(br.length, data.length);
}
console.log(`precompressed ${count} files: ${Math.round(before / 1024)} KB -> ${Math.round(after / 1024)} KB (brotli)`);
