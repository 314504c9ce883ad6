/** Test-only: zip and PDF bombs generated on the spot (none is stored in the repository), and a way to watch one land. */
import { constants, deflateRawSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';

const MB = 1024 * 1024;

/**
 * Raw deflate data that inflates to `megabytes` MB of zeros, in about 1 KB per MB: one fully flushed (so
 * byte-aligned, not final) block of 1 MB of zeros repeated, then an empty final block. Built in milliseconds,
 * where deflating a real gigabyte would take seconds.
 */
let zerosBlock: Buffer | null = null;
export function deflatedZeros(megabytes: number): Buffer {
  const block = (zerosBlock ??= deflateRawSync(Buffer.alloc(MB), { level: 9, finishFlush: constants.Z_FULL_FLUSH }));
  // BFINAL=1, fixed Huffman codes, end-of-block: the shortest final block there is.
  const finalBlock = Buffer.from([0x03, 0x00]);
  return Buffer.concat([...Array.from({ length: megabytes }, () => block), finalBlock]);
}

/** The same zeros as zlib data, what a PDF's /FlateDecode stream holds: a header, the deflate data, the checksum. */
export function zlibZeros(megabytes: number): Buffer {
  // Adler-32 of n zero bytes: its low sum stays 1, its high sum is n (mod 65521).
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(((megabytes * MB) % 65521) * 0x10000 + 1);
  return Buffer.concat([Buffer.from([0x78, 0xda]), deflatedZeros(megabytes), checksum]);
}

/**
 * A one-page PDF written by pdf-lib whose page content is the given /FlateDecode streams, and, with
 * `objectStream`, one more stream marked /Type /ObjStm (which pdf-lib inflates the moment it loads the file).
 */
export async function pdfWithStreams(contents: Buffer[], objectStream?: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([420, 595]);
  const flate = (packed: Buffer, extra: Record<string, unknown> = {}) =>
    doc.context.register(PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: packed.length, ...extra }), packed));
  page.node.set(PDFName.of('Contents'), doc.context.obj(contents.map((packed) => flate(packed))));
  if (objectStream) flate(objectStream, { Type: 'ObjStm', N: 1, First: 4 });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

export interface BombEntry {
  name: string;
  /** The packed bytes as stored. */
  packed: Buffer;
  /** The unpacked size the archive declares (a bomb may lie). */
  declaredSize: number;
  /** 8 deflated (the default) or 0 stored. */
  method?: 0 | 8;
}

/**
 * A ZIP archive written by hand, so that sizes can lie and entries can share bytes. `shareFirst` makes every
 * central directory entry after the first point at the first entry's data (an overlapping bomb).
 */
export function zipOf(entries: BombEntry[], options: { shareFirst?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const offsets: number[] = [];
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.method ?? 8;
    const header = (signature: number, size: number) => {
      const b = Buffer.alloc(size);
      b.writeUInt32LE(signature, 0);
      return b;
    };
    const local = header(0x04034b50, 30);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(entry.packed.length, 18);
    local.writeUInt32LE(Math.min(entry.declaredSize, 0xfffffffe), 22);
    local.writeUInt16LE(name.length, 26);
    const at = options.shareFirst && offsets.length ? offsets[0] : offset;
    if (!(options.shareFirst && offsets.length)) {
      locals.push(local, name, entry.packed);
      offset += local.length + name.length + entry.packed.length;
    }
    offsets.push(at);
    const central = header(0x02014b50, 46);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(entry.packed.length, 20);
    central.writeUInt32LE(Math.min(entry.declaredSize, 0xfffffffe), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    centrals.push(central, name);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The classic: one entry of `megabytes` MB of zeros, declared honestly. */
export const honestBomb = (name: string, megabytes: number) => zipOf([{ name, packed: deflatedZeros(megabytes), declaredSize: megabytes * MB }]);

/** The same zeros behind a directory that claims they unpack to one kilobyte. */
export const lyingBomb = (name: string, megabytes: number) => zipOf([{ name, packed: deflatedZeros(megabytes), declaredSize: 1024 }]);

export interface Watched<T> {
  result: T;
  ms: number;
  /** Largest resident set seen while it ran, over the one before it started. */
  rssGrowth: number;
  /** Longest the event loop went without running a timer while it ran. */
  longestStall: number;
}

/** Runs `work`, sampling the resident set size and the event loop every 5 ms. */
export async function watch<T>(work: () => Promise<T>): Promise<Watched<T>> {
  const before = process.memoryUsage.rss();
  let peak = before;
  let last = performance.now();
  let longestStall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    longestStall = Math.max(longestStall, performance.now() - last);
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, ms, rssGrowth: peak - before, longestStall };
  } finally {
    clearInterval(timer);
  }
}
