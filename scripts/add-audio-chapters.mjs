#!/usr/bin/env node
// Writes ID3v2 chapter marks (CTOC + CHAP frames, "ID3v2 Chapter Frame Addendum" 1.0) into the seeded
// audiobook sample, so the listening room has real chapters to read from the file itself.
//
//   node scripts/add-audio-chapters.mjs
//
// Keeps every other frame of the existing ID3v2.3 tag, replaces any earlier chapter frames, and leaves
// the audio frames untouched. Running it twice gives the same bytes.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FILE = resolve(root, 'src/server/db/seed/files/what-we-owe-the-dead-audio-sample.mp3');

/** Start times in milliseconds; each chapter ends where the next begins, the last at the end of the audio. */
const CHAPTERS = [
  { id: 'ch0', title: 'Opening credits', start: 0 },
  { id: 'ch1', title: 'Chapter One: The Return', start: 6000 },
];
const DURATION_MS = 27324;

const syncsafe = (buf, at) => (buf[at] << 21) | (buf[at + 1] << 14) | (buf[at + 2] << 7) | buf[at + 3];
const toSyncsafe = (n) => Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);

/** An ID3v2.3 frame: 4-character id, plain 32-bit size, two zero flag bytes, then the body. */
function frame(id, body) {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}
const latin1z = (text) => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from([0])]);
const textFrame = (id, text) => frame(id, Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')]));

function chapterFrames() {
  const chaps = CHAPTERS.map((c, i) => {
    const times = Buffer.alloc(16);
    times.writeUInt32BE(c.start, 0);
    times.writeUInt32BE(CHAPTERS[i + 1]?.start ?? DURATION_MS, 4);
    // Byte offsets are "not used" (all ones): players seek by time.
    times.writeUInt32BE(0xffffffff, 8);
    times.writeUInt32BE(0xffffffff, 12);
    return frame('CHAP', Buffer.concat([latin1z(c.id), times, textFrame('TIT2', c.title)]));
  });
  const toc = frame(
    'CTOC',
    Buffer.concat([
      latin1z('toc'),
      Buffer.from([0x03, CHAPTERS.length]), // top-level and ordered
      ...CHAPTERS.map((c) => latin1z(c.id)),
      textFrame('TIT2', 'Contents'),
    ]),
  );
  return [toc, ...chaps];
}

function rewrite(file) {
  if (file.subarray(0, 3).toString('latin1') !== 'ID3' || file[3] !== 3) throw new Error('expected an ID3v2.3 tag');
  const tagEnd = 10 + syncsafe(file, 6);
  const kept = [];
  for (let at = 10; at + 10 <= tagEnd && file[at] !== 0; ) {
    const id = file.subarray(at, at + 4).toString('latin1');
    const size = file.readUInt32BE(at + 4);
    if (id !== 'CHAP' && id !== 'CTOC') kept.push(file.subarray(at, at + 10 + size));
    at += 10 + size;
  }
  const frames = Buffer.concat([...kept, ...chapterFrames()]);
  const header = Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([3, 0, 0]), toSyncsafe(frames.length)]);
  return Buffer.concat([header, frames, file.subarray(tagEnd)]);
}

const out = rewrite(readFileSync(FILE));
writeFileSync(FILE, out);
console.log(`wrote ${FILE.slice(root.length + 1)} (${out.length} bytes, ${CHAPTERS.length} chapters)`);
