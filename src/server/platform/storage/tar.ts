import { Readable, type Writable } from 'node:stream';
import { extract, pack, type Pack } from 'tar-stream';

/**
 * The backups' tar archives, written and read as streams with tar-stream (decision 0101), so an archive of
 * large audiobooks never sits in memory: tar-stream takes an entry's next chunk only once the archive
 * stream has passed the last one on, and hands out one entry at a time. Archives open with any tar tool
 * (`tar -xzf backup.tar.gz`). What is added here over the library is the check that a streamed file is
 * exactly the size announced in its header, worded for the backup (the file changed while it was copied).
 */

/** Waits for `event` on a stream (tar-stream's streams are streamx ones, so node:events' `once` does not fit). */
function settle(stream: { once(event: string, listener: (...args: unknown[]) => void): unknown }, event: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once(event, () => resolve());
    stream.once('error', (error) => reject(error as Error));
  });
}

export class TarWriter {
  private readonly pack: Pack = pack();
  private readonly done: Promise<void>;

  constructor(out: Writable) {
    this.done = new Promise<void>((resolve, reject) => {
      out.once('finish', resolve);
      out.once('error', reject);
      this.pack.once('error', reject);
    });
    // A backup that fails part-way destroys `out`; its error is the backup's, reported where it happened.
    this.done.catch(() => undefined);
    this.pack.pipe(out);
  }

  async add(name: string, data: Buffer, mtime = new Date()): Promise<void> {
    await this.addStream(name, data.length, Readable.from([data]), mtime);
  }

  /** Streams `size` bytes in; a source that ends early or runs long is an error (the file changed). */
  async addStream(name: string, size: number, source: Readable, mtime = new Date()): Promise<void> {
    const entry = this.pack.entry({ name, size, mtime, mode: 0o644 });
    const written = settle(entry, 'finish');
    written.catch(() => undefined);
    let count = 0;
    for await (const chunk of source) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      count += buf.length;
      if (count > size) {
        entry.destroy();
        throw new Error(`${name} grew while it was being archived`);
      }
      if (!entry.write(buf)) await settle(entry, 'drain');
    }
    if (count !== size) {
      entry.destroy();
      throw new Error(`${name} changed size while it was being archived`);
    }
    entry.end(() => undefined);
    await written;
  }

  async finish(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; must be consumed (or `resume`d) before the next entry is read. */
  body: Readable;
}

/** Yields each entry of a tar stream in order, its body streamed. */
export async function* readTar(source: Readable): AsyncGenerator<TarEntry> {
  const archive = extract();
  source.once('error', (error) => archive.destroy(error));
  source.pipe(archive);
  for await (const entry of archive) {
    // A Node stream over the entry, for callers that pipe it into the file store or read it by lines.
    const body = Readable.from(entry);
    const consumed = new Promise<void>((resolve, reject) => {
      body.once('end', resolve);
      body.once('close', resolve);
      body.once('error', reject);
    });
    yield { name: entry.header.name, size: entry.header.size ?? 0, body };
    // The caller did not read it all: drain the rest, so the archive moves on to the next entry.
    body.resume();
    await consumed;
  }
}
