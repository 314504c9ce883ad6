import { createInflateRaw } from 'node:zlib';
import { AppError } from '../http/errors';
import type { FileStore } from './files';
import { openStoredFile } from './stored-refusals';

/**
 * THE way the server opens a ZIP archive that came from outside (an uploaded EPUB, a file to trace, a stored
 * master): every archive is measured against ZIP_LIMITS from its central directory before a byte is
 * inflated, and each entry is inflated on zlib's thread pool, never past the size the directory declared
 * (declared sizes can lie). A zip bomb is refused in milliseconds with memory flat, and other requests
 * keep being answered while a large honest book is inflated. Decision 0059 explains the limits.
 *
 * Archives the server writes go through fflate; this reader stays hand-written because no ZIP library does
 * what it is for (decision 0101): fflate and the others trust the sizes an entry declares, inflate on the
 * main thread (fflate's async mode spawns a worker per call) and cannot say, before inflating, that two
 * entries share packed bytes.
 */
export const ZIP_LIMITS = {
  /** Entries (files and folders). A long novel with pictures has a few hundred. */
  maxEntries: 10_000,
  /** All entries together, unpacked. A 50 MB e-book of pure text unpacks to about 200 MB. */
  maxUnpackedBytes: 256 * 1024 * 1024,
  /** Unpacked over packed size, for an entry and for the whole archive. Text packs 3-10 to 1; deflate allows 1,032. */
  maxRatio: 100,
  /** Below this unpacked size an entry (or archive) may have any ratio: a page of spaces harms no one. */
  ratioFloorBytes: 1024 * 1024,
} as const;

/**
 * The archive is a zip bomb (or built like one). Its message names the limit, for the person who sent it; met
 * in an upload it is that upload's answer (400, on the form's "file" field).
 */
export class ZipRefused extends AppError {
  /** `lead` names what was refused; a PDF's compressed streams are refused the same way (see pdf.ts). */
  constructor(detail: string, lead = 'This file was refused as a zip bomb') {
    const message = `${lead}: ${detail}`;
    super('ZIP_BOMB', 400, message, { file: message });
    this.name = 'ZipRefused';
  }
}

/** The archive cannot be read (not a ZIP, cut short, an unsupported method or encryption). */
export class ZipDamaged extends Error {
  constructor(detail: string) {
    super(`The archive is damaged and cannot be read: ${detail}`);
    this.name = 'ZipDamaged';
  }
}

/** One file of an archive as its central directory describes it. */
export interface ZipDirectoryEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** The unpacked size the directory declares (checked again while inflating). */
  size: number;
  /** Where the entry's packed bytes start in the archive. */
  dataStart: number;
}

/** One file of an archive, unpacked. */
export interface ZipEntry {
  name: string;
  data: Buffer;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MB = 1024 * 1024;

export const megabytes = (bytes: number) => `${(Math.round((bytes / MB) * 10) / 10).toLocaleString('en-GB')} MB`;
const kilobytes = (bytes: number) => `${Math.max(1, Math.ceil(bytes / 1024)).toLocaleString('en-GB')} KB`;
const times = (ratio: number) => Math.floor(ratio).toLocaleString('en-GB');

/** A 64-bit little-endian number, refused as too large past what a double holds exactly. */
function readSize64(bytes: Buffer, at: number): number {
  const value = bytes.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipRefused(`it declares a file of ${value} bytes, and the limit is ${megabytes(ZIP_LIMITS.maxUnpackedBytes)} for the whole archive.`);
  return Number(value);
}

function findEndOfDirectory(bytes: Buffer): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (bytes.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipDamaged('it is not a ZIP archive.');
}

/** Entry count and where the central directory starts, from the ZIP64 record when the classic one overflows. */
function directoryBounds(bytes: Buffer): { count: number; offset: number } {
  const end = findEndOfDirectory(bytes);
  let count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  if ((count === 0xffff || offset === 0xffffffff) && end >= 20 && bytes.readUInt32LE(end - 20) === EOCD64_LOCATOR) {
    const end64 = readSize64(bytes, end - 12);
    if (bytes.readUInt32LE(end64) !== EOCD64) throw new ZipDamaged('its ZIP64 directory record is missing.');
    count = readSize64(bytes, end64 + 32);
    offset = readSize64(bytes, end64 + 48);
  }
  return { count, offset };
}

/** Sizes and offset an entry keeps in its ZIP64 extra field when the classic fields overflow. */
function zip64Fields(bytes: Buffer, extraStart: number, extraEnd: number, wanted: { size: boolean; compressed: boolean; offset: boolean }) {
  for (let at = extraStart; at + 4 <= extraEnd; ) {
    const id = bytes.readUInt16LE(at);
    const length = bytes.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = () => {
        const value = readSize64(bytes, field);
        field += 8;
        return value;
      };
      return {
        size: wanted.size ? next() : undefined,
        compressed: wanted.compressed ? next() : undefined,
        offset: wanted.offset ? next() : undefined,
      };
    }
    at += 4 + length;
  }
  throw new ZipDamaged('an entry is missing its ZIP64 sizes.');
}

function checkRatio(name: string, size: number, packed: number): void {
  if (size > ZIP_LIMITS.ratioFloorBytes && size > packed * ZIP_LIMITS.maxRatio) {
    const ratio = packed > 0 ? times(size / packed) : 'unlimited';
    throw new ZipRefused(`"${name}" would unpack to ${ratio} times its packed size, and the limit is ${ZIP_LIMITS.maxRatio} times.`);
  }
}

function readDirectory(bytes: Buffer): ZipDirectoryEntry[] {
  const { count, offset } = directoryBounds(bytes);
  if (count > ZIP_LIMITS.maxEntries) {
    throw new ZipRefused(`it holds ${count.toLocaleString('en-GB')} files, and the limit is ${ZIP_LIMITS.maxEntries.toLocaleString('en-GB')}.`);
  }
  const listed: Array<ZipDirectoryEntry & { localOffset: number }> = [];
  let at = offset;
  for (let n = 0; n < count; n += 1) {
    if (bytes.readUInt32LE(at) !== CENTRAL) throw new ZipDamaged('its central directory is broken.');
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    let compressedSize = bytes.readUInt32LE(at + 20);
    let size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    let localOffset = bytes.readUInt32LE(at + 42);
    const nameEnd = at + 46 + nameLength;
    if (nameEnd > bytes.length) throw new ZipDamaged('its central directory is cut short.');
    const name = bytes.subarray(at + 46, nameEnd).toString('utf8');
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      const wide = zip64Fields(bytes, nameEnd, nameEnd + extraLength, {
        size: size === 0xffffffff,
        compressed: compressedSize === 0xffffffff,
        offset: localOffset === 0xffffffff,
      });
      size = wide.size ?? size;
      compressedSize = wide.compressed ?? compressedSize;
      localOffset = wide.offset ?? localOffset;
    }
    at = nameEnd + extraLength + commentLength;
    if (flags & 0x1) throw new ZipDamaged(`"${name}" is encrypted.`);
    listed.push({ name, method, compressedSize, size, localOffset, dataStart: 0 });
  }

  // The limits first, on what the directory declares: a bomb is named as one, whatever else is wrong with it.
  const unpacked = listed.reduce((sum, entry) => sum + entry.size, 0);
  if (unpacked > ZIP_LIMITS.maxUnpackedBytes) {
    throw new ZipRefused(`it would unpack to ${megabytes(unpacked)}, and the limit is ${megabytes(ZIP_LIMITS.maxUnpackedBytes)}.`);
  }
  for (const entry of listed) checkRatio(entry.name, entry.size, entry.compressedSize);
  if (unpacked > ZIP_LIMITS.ratioFloorBytes && unpacked > bytes.length * ZIP_LIMITS.maxRatio) {
    throw new ZipRefused(`it would unpack to ${times(unpacked / bytes.length)} times its own size, and the limit is ${ZIP_LIMITS.maxRatio} times.`);
  }

  const spans: Array<[start: number, end: number]> = [];
  for (const entry of listed) {
    const { name, method, size, compressedSize, localOffset } = entry;
    if (method !== 0 && method !== 8) throw new ZipDamaged(`"${name}" uses a compression other than deflate.`);
    if (method === 0 && size !== compressedSize) throw new ZipDamaged(`"${name}" is stored, but its two sizes differ.`);
    if (bytes.readUInt32LE(localOffset) !== LOCAL) throw new ZipDamaged(`the local header of "${name}" is missing.`);
    entry.dataStart = localOffset + 30 + bytes.readUInt16LE(localOffset + 26) + bytes.readUInt16LE(localOffset + 28);
    if (entry.dataStart + compressedSize > offset) throw new ZipDamaged(`"${name}" runs past the end of the archive's data.`);
    spans.push([localOffset, entry.dataStart + compressedSize]);
  }
  // A non-recursive bomb points many entries at the same packed bytes; honest archives never overlap.
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i += 1) {
    if (spans[i][0] < spans[i - 1][1]) throw new ZipRefused('several of its entries unpack the same packed bytes.');
  }
  return listed
    .filter((entry) => !entry.name.endsWith('/'))
    .map(({ name, method, compressedSize, size, dataStart }) => ({ name, method, compressedSize, size, dataStart }));
}

/**
 * The archive's files as its central directory lists them (folders left out), after every limit has been
 * checked against the declared sizes. Throws ZipRefused for a bomb and ZipDamaged for anything unreadable.
 */
export function zipDirectory(bytes: Buffer): ZipDirectoryEntry[] {
  try {
    return readDirectory(bytes);
  } catch (error) {
    // A field pointing outside the file: the archive is cut short or forged.
    if (error instanceof RangeError) throw new ZipDamaged('it is cut short.');
    throw error;
  }
}

/** Larger than zlib's default, so a big book is a few thousand trips to the thread pool rather than tens of thousands. */
export const INFLATE_CHUNK = 256 * 1024;

/**
 * Inflates one entry on zlib's thread pool, stopping the moment it passes its declared size (a lying entry
 * is a bomb). With `keep` false the bytes are counted and dropped, so checking a whole archive holds one
 * chunk at a time.
 */
function inflateEntry(bytes: Buffer, entry: ZipDirectoryEntry, keep: boolean): Promise<Buffer | null> {
  const packed = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === 0) return Promise.resolve(keep ? Buffer.from(packed) : null);
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    const chunks: Buffer[] = [];
    let produced = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      inflater.destroy();
      reject(error);
    };
    inflater.on('data', (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > entry.size) {
        fail(new ZipRefused(`"${entry.name}" unpacks to more than the ${kilobytes(entry.size)} its archive declares.`));
        return;
      }
      if (keep) chunks.push(chunk);
    });
    inflater.on('error', () => fail(new ZipDamaged(`"${entry.name}" is not valid deflate data.`)));
    inflater.on('end', () => {
      if (settled) return;
      settled = true;
      if (produced !== entry.size) reject(new ZipDamaged(`"${entry.name}" unpacks to another size than its archive declares.`));
      else resolve(keep ? Buffer.concat(chunks, produced) : null);
    });
    inflater.end(packed);
  });
}

/**
 * The archive's files (in archive order), unpacked within ZIP_LIMITS; `wanted` picks which ones are
 * inflated (the limits are checked on all of them).
 */
export async function readZip(bytes: Buffer, wanted: (name: string) => boolean = () => true): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  for (const entry of zipDirectory(bytes)) {
    if (wanted(entry.name)) entries.push({ name: entry.name, data: (await inflateEntry(bytes, entry, true))! });
  }
  return entries;
}

/**
 * Inflates every entry and keeps none: proof, before an upload is stored, that no entry lies about its size,
 * so that whoever opens the stored file later cannot meet a bomb. Returns the directory.
 */
export async function verifyZip(bytes: Buffer): Promise<ZipDirectoryEntry[]> {
  const directory = zipDirectory(bytes);
  for (const entry of directory) await inflateEntry(bytes, entry, false);
  return directory;
}

/** A stored archive's files, as readZip gives them; a refusal is remembered for that file (see openStoredFile). */
export async function readStoredZip(files: FileStore, key: string, wanted?: (name: string) => boolean): Promise<ZipEntry[]> {
  return openStoredFile(files, key, (bytes) => readZip(bytes, wanted), (error) => error instanceof ZipRefused || error instanceof ZipDamaged);
}
