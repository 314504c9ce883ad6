import { Readable, type Writable } from 'node:stream';

/**
 * The small part of the tar format (POSIX ustar) the backups need: regular files with short names,
 * written and read as streams, so an archive of large audiobooks never sits in memory. Archives open
 * with any tar tool (`tar -xzf backup.tar.gz`).
 */
const BLOCK = 512;

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 99) throw new Error(`tar entry name too long: ${name}`);
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write(`${Math.floor(mtime.getTime() / 1000).toString(8).padStart(11, '0')}\0`, 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

async function writeAll(out: Writable, chunk: Buffer): Promise<void> {
  if (out.write(chunk)) return;
  // Wait for the stream to drain; both listeners go once either fires, so a long archive (thousands of
  // waits) does not pile listeners onto the stream.
  await new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      out.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      out.off('drain', onDrain);
      reject(error);
    };
    out.once('drain', onDrain);
    out.once('error', onError);
  });
}

export class TarWriter {
  constructor(private readonly out: Writable) {}

  async add(name: string, data: Buffer, mtime = new Date()): Promise<void> {
    await this.addStream(name, data.length, Readable.from([data]), mtime);
  }

  /** Streams `size` bytes in; a source that ends early or runs long is an error (the file changed). */
  async addStream(name: string, size: number, source: Readable, mtime = new Date()): Promise<void> {
    await writeAll(this.out, header(name, size, mtime));
    let written = 0;
    for await (const chunk of source) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      written += buf.length;
      if (written > size) throw new Error(`${name} grew while it was being archived`);
      await writeAll(this.out, buf);
    }
    if (written !== size) throw new Error(`${name} changed size while it was being archived`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await writeAll(this.out, Buffer.alloc(pad));
  }

  async finish(): Promise<void> {
    await writeAll(this.out, Buffer.alloc(BLOCK * 2));
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(resolve);
    });
  }
}

/** Reads exact byte counts from a stream. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private done = false;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(source: Readable) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<void> {
    while (this.length < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
  }

  /** Up to `n` bytes (fewer only at the end of the stream). */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const all = Buffer.concat(this.buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length ? [rest] : [];
    this.length = rest.length;
    return out;
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; must be consumed (or `skip`ped) before the next entry is read. */
  body: Readable;
}

/** Yields each entry of a tar stream in order, its body streamed in 1 MB chunks. */
export async function* readTar(source: Readable): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source);
  for (;;) {
    const h = await reader.read(BLOCK);
    if (h.length < BLOCK || h.every((b) => b === 0)) return;
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
    let left = size;
    let consumed: Promise<void> = Promise.resolve();
    const body = Readable.from(
      (async function* () {
        while (left > 0) {
          const chunk = await reader.read(Math.min(left, 1024 * 1024));
          if (chunk.length === 0) throw new Error(`archive ends inside ${name}`);
          left -= chunk.length;
          yield chunk;
        }
      })(),
    );
    consumed = new Promise((resolve, reject) => {
      body.on('end', resolve);
      body.on('close', resolve);
      body.on('error', reject);
    });
    yield { name, size, body };
    if (left > 0) {
      // The caller did not read it all: drain the rest.
      body.resume();
    }
    await consumed;
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await reader.read(pad);
  }
}
