import fs from 'node:fs';
import path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfWithStreams, watch, zlibZeros } from '../../test/zip-bombs';
import { PDF_LIMITS, PdfRefused, checkPdf } from './pdf';
import { seedFilesDir } from '../operations/seed';

const MB = 1024 * 1024;
const refusal = (error: unknown) => (error instanceof PdfRefused ? error.message : `not refused: ${String(error)}`);
const outcome = (bytes: Buffer) => checkPdf(bytes).then(() => 'passed', refusal);
const TOTAL_REFUSAL = 'This PDF was refused as a decompression bomb: its compressed streams would unpack to more than 256 MB, and the limit is 256 MB.';
const ratioRefusal = (object: number) =>
  `This PDF was refused as a decompression bomb: object ${object} would unpack to more than 100 times its packed size, and the limit is 100 times.`;

describe('bounded PDF checking', () => {
  it('generates real bombs: the zlib zeros inflate to exactly their size', async () => {
    const eight = inflateSync(zlibZeros(8));
    expect(eight.length).toBe(8 * MB);
    expect(eight.every((b) => b === 0)).toBe(true);
    expect(zlibZeros(1024).length).toBeLessThan(1.1 * MB);
  });

  it('passes honest PDFs: the seeded master, and a compressed one pdf-lib writes with object streams', async () => {
    expect(await outcome(fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-sample.pdf')))).toBe('passed');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.TimesRoman);
    for (let i = 0; i < 40; i += 1) doc.addPage().drawText('The rain had not stopped for three days. '.repeat(3), { font, size: 9, x: 20, y: 400 });
    const compressed = Buffer.from(await doc.save({ useObjectStreams: true }));
    expect(compressed.includes('/ObjStm')).toBe(true);
    expect(await outcome(compressed)).toBe('passed');
    // A megabyte of page text packs far tighter than a real page, but stays within the floor.
    expect(await outcome(await pdfWithStreams([deflateSync(Buffer.alloc(MB, 'a'))]))).toBe('passed');
  });

  it('refuses a content stream of 1 GB of zeros in under a second, memory flat', async () => {
    const bomb = await pdfWithStreams([zlibZeros(1024)]);
    expect(bomb.toString('latin1')).toMatch(/5 0 obj\s*<<\s*\/Filter \/FlateDecode\s*\/Length \d+\s*>>\s*stream/);
    const watched = await watch(() => outcome(bomb));
    expect(watched.result).toBe(ratioRefusal(5));
    expect(watched.ms).toBeLessThan(1000);
    expect(watched.rssGrowth).toBeLessThan(50 * MB);
    // The event loop kept turning; the margin is for a busy machine, as in the upload tests.
    expect(watched.longestStall).toBeLessThan(500);
  });

  it('refuses an object stream of 1 GB of zeros, which pdf-lib would inflate the moment it loads the file', async () => {
    const bomb = await pdfWithStreams([deflateSync(Buffer.from('BT ET'))], zlibZeros(1024));
    const watched = await watch(() => outcome(bomb));
    expect(watched.result).toBe(ratioRefusal(6));
    expect(watched.ms).toBeLessThan(1000);
    expect(watched.rssGrowth).toBeLessThan(50 * MB);
  });

  it('refuses a bomb deflated twice, where the first layer alone looks harmless', async () => {
    const twice = deflateSync(zlibZeros(1024), { level: 9 });
    expect(twice.length).toBeLessThan(20 * 1024);
    const bomb = await pdfWithStreams([twice]);
    const watched = await watch(() => outcome(bomb));
    expect(watched.result).toBe(ratioRefusal(5));
    expect(watched.rssGrowth).toBeLessThan(50 * MB);
  });

  it('refuses many streams each under the ratio floor once together they pass 256 MB', async () => {
    // 1 MB each packs to about a kilobyte, any ratio is allowed that small; 300 of them are 300 MB.
    const bomb = await pdfWithStreams(Array.from({ length: 300 }, () => zlibZeros(1)));
    const watched = await watch(() => outcome(bomb));
    expect(watched.result).toBe(TOTAL_REFUSAL);
    // 256 MB really are inflated here (about half a second on an idle machine), but off the event loop.
    expect(watched.ms).toBeLessThan(5000);
    expect(watched.longestStall).toBeLessThan(500);
    // The 256 MB pass in 256 KB chunks dropped as they come; what shows is garbage the collector has not
    // reached yet on a busy machine, far below what was inflated.
    expect(watched.rssGrowth).toBeLessThan(100 * MB);
  });

  it('refuses more compressed streams than the limit before inflating any', async () => {
    const tiny = deflateSync(Buffer.from('q Q'));
    const objects = Array.from({ length: PDF_LIMITS.maxStreams + 1 }, (_, i) => Buffer.concat([Buffer.from(`${i + 1} 0 obj\n<< /Filter /FlateDecode /Length ${tiny.length} >>\nstream\n`), tiny, Buffer.from('\nendstream\nendobj\n')]));
    const many = Buffer.concat([Buffer.from('%PDF-1.7\n'), ...objects, Buffer.from('%%EOF\n')]);
    const watched = await watch(() => outcome(many));
    expect(watched.result).toBe('This PDF was refused as a decompression bomb: it holds more than 10,000 compressed streams, and the limit is 10,000.');
    expect(watched.ms).toBeLessThan(1000);
  });

  it('leaves damaged streams and files that are no PDF at all to pdf-lib', async () => {
    const cut = deflateSync(Buffer.from('BT /F1 12 Tf (Chapter one) Tj ET '.repeat(50))).subarray(0, 30);
    expect(await outcome(await pdfWithStreams([cut]))).toBe('passed');
    // A zlib header followed by garbage, and a file with "stream" and nothing after it.
    expect(await outcome(await pdfWithStreams([Buffer.concat([Buffer.from([0x78, 0x9c]), Buffer.alloc(100, 0xff)])]))).toBe('passed');
    expect(await outcome(Buffer.from('%PDF-1.7\n1 0 obj << >> stream'))).toBe('passed');
  });
});
