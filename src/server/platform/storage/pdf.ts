import { type Inflate, createInflate } from 'node:zlib';
import type { FileStore } from './files';
import { openStoredFile } from './stored-refusals';
import { INFLATE_CHUNK, ZIP_LIMITS, ZipRefused, megabytes } from './zip';

/**
 * THE check before the server hands a PDF that came from outside (a file to trace, a master upload, a stored
 * master) to pdf-lib. pdf-lib inflates compressed streams (content streams, object streams) on the event
 * loop with no limit, so a small PDF could grow to gigabytes there. Here every compressed stream is inflated
 * first, on zlib's thread pool, counted and thrown away, within the limits of ZIP_LIMITS. Decision 0059.
 */
export const PDF_LIMITS = {
  /** Compressed streams. A long illustrated book has a few thousand (pages, fonts, pictures, object streams). */
  maxStreams: 10_000,
  /** All streams together, unpacked: the ZIP limit, for the same memory. */
  maxUnpackedBytes: ZIP_LIMITS.maxUnpackedBytes,
  /** Unpacked over packed size, for one stream (so far), once it passes the floor below. */
  maxRatio: ZIP_LIMITS.maxRatio,
  ratioFloorBytes: ZIP_LIMITS.ratioFloorBytes,
} as const;

/** The PDF is a decompression bomb (or built like one): the same 400 ZIP_BOMB refusal, worded for a PDF. */
export class PdfRefused extends ZipRefused {
  constructor(detail: string) {
    super(detail, 'This PDF was refused as a decompression bomb');
    this.name = 'PdfRefused';
  }
}

const STREAM = Buffer.from('stream', 'latin1');
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;

/** The first byte of a stream's data: after "stream" and the end of line pdf-lib skips (" \r\n", "\r\n", "\r" or "\n"). */
function dataStart(bytes: Buffer, afterKeyword: number): number {
  const at = (offset: number, byte: number) => bytes[afterKeyword + offset] === byte;
  if (at(0, SPACE) && at(1, CR) && at(2, LF)) return afterKeyword + 3;
  if (at(0, CR) && at(1, LF)) return afterKeyword + 2;
  if (at(0, CR) || at(0, LF)) return afterKeyword + 1;
  return afterKeyword;
}

/** Two bytes pdf-lib accepts as a zlib header (deflate, a valid check), the only data it will inflate. */
function zlibHeaderAt(bytes: Buffer, at: number): boolean {
  if (at + 2 > bytes.length) return false;
  const cmf = bytes[at];
  const flg = bytes[at + 1];
  return (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0;
}

/** One compressed stream: where its data starts. */
interface PackedStream {
  start: number;
  /** "object 12", from the "12 0 obj" before it, for the refusal message. */
  label: string;
}

/**
 * Every stream whose data begins with a zlib header. The dictionary is not trusted: its /Filter may be an
 * indirect reference, and /Length may lie, so what decides is the data pdf-lib would inflate. Loose by
 * design: a stray "stream" inside binary data is counted only if a zlib header follows it, and inflating
 * it costs a failed attempt. Where the data ends is left to zlib (see inflateCounted).
 */
function compressedStreams(bytes: Buffer): PackedStream[] {
  const found: PackedStream[] = [];
  for (let at = bytes.indexOf(STREAM); at !== -1; at = bytes.indexOf(STREAM, at + STREAM.length)) {
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') continue;
    const start = dataStart(bytes, at + STREAM.length);
    if (!zlibHeaderAt(bytes, start)) continue;
    if (found.length === PDF_LIMITS.maxStreams) {
      throw new PdfRefused(`it holds more than ${PDF_LIMITS.maxStreams.toLocaleString('en-GB')} compressed streams, and the limit is ${PDF_LIMITS.maxStreams.toLocaleString('en-GB')}.`);
    }
    const object = [...bytes.toString('latin1', Math.max(0, at - 2048), at).matchAll(/(\d+)\s+\d+\s+obj\b/g)].at(-1);
    found.push({ start, label: object ? `object ${object[1]}` : 'a stream' });
  }
  return found;
}

/**
 * Inflates one stream on zlib's thread pool and counts what it gives, never past `budget` bytes. Its output is
 * inflated again while it starts with a zlib header (a /FlateDecode filter applied twice is a bomb of bombs).
 * Resolves with the bytes counted; damaged data ends the count there, as pdf-lib would stop there too.
 */
function inflateCounted(bytes: Buffer, stream: PackedStream, budget: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const layers: Inflate[] = [];
    let open = 0;
    let produced = 0;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      for (const layer of layers) layer.destroy();
      if (error) reject(error);
      else resolve(produced);
    };
    const count = (length: number) => {
      produced += length;
      // The ratio is taken over the packed bytes inflated so far (zlib counts what it has read), so a bomb is
      // caught a megabyte in rather than after a hundred times its whole size.
      const packed = layers[0].bytesWritten;
      if (produced > budget) {
        finish(new PdfRefused(`its compressed streams would unpack to more than ${megabytes(PDF_LIMITS.maxUnpackedBytes)}, and the limit is ${megabytes(PDF_LIMITS.maxUnpackedBytes)}.`));
      } else if (produced > PDF_LIMITS.ratioFloorBytes && produced > packed * PDF_LIMITS.maxRatio) {
        finish(new PdfRefused(`${stream.label} would unpack to more than ${PDF_LIMITS.maxRatio} times its packed size, and the limit is ${PDF_LIMITS.maxRatio} times.`));
      }
    };
    const addLayer = (): Inflate => {
      const layer = createInflate({ chunkSize: INFLATE_CHUNK });
      layers.push(layer);
      open += 1;
      let next: Inflate | null = null;
      let first = true;
      layer.on('data', (chunk: Buffer) => {
        count(chunk.length);
        if (settled) return;
        if (first && layers.length < 8 && zlibHeaderAt(chunk, 0)) {
          next = addLayer();
          // A layer that fails must not leave this one waiting for it to drain.
          next.once('close', () => layer.resume());
        }
        first = false;
        // The next layer takes this one's output at its own pace, so memory holds a chunk or two.
        if (next && !next.destroyed && !next.write(chunk)) {
          layer.pause();
          next.once('drain', () => layer.resume());
        }
      });
      // Damaged data stops a layer; what it gave so far still counts (pdf-lib stops there too).
      layer.on('error', () => undefined);
      layer.on('close', () => {
        if (next && !next.destroyed && !next.writableEnded) next.end();
        open -= 1;
        if (open === 0) finish(null);
      });
      return layer;
    };
    // The data runs to the file's end: zlib stops at its own end marker, so an "endstream" planted inside the
    // data (where pdf-lib would trust /Length) cannot hide the rest from the count.
    addLayer().end(bytes.subarray(stream.start));
  });
}

/**
 * Inflates (and throws away) every compressed stream of a PDF within PDF_LIMITS; throws PdfRefused for a
 * bomb. Anything that is not a bomb passes, damaged or not: whether it is a readable PDF is pdf-lib's call.
 */
export async function checkPdf(bytes: Buffer): Promise<void> {
  let unpacked = 0;
  for (const stream of compressedStreams(bytes)) {
    unpacked += await inflateCounted(bytes, stream, PDF_LIMITS.maxUnpackedBytes - unpacked);
  }
}

/** A stored PDF's bytes once checkPdf has passed them; a refusal is remembered for that file (see openStoredFile). */
export async function readStoredPdf(files: FileStore, key: string): Promise<Buffer> {
  return openStoredFile(
    files,
    key,
    async (bytes) => {
      await checkPdf(bytes);
      return bytes;
    },
    (error) => error instanceof PdfRefused,
  );
}
