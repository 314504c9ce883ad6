import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getSystemErrorName } from 'node:util';
import { findProjectRoot } from '../../project-root';

/** The native module built from src/server/native/sendfile.c (see that file for the contract). */
export interface NativeSendfile {
  start(socketFd: number, fileFd: number, offset: number, length: number, idleMs: number, done: (errno: number, sent: number) => void): object;
  cancel(job: object): void;
}

/**
 * How long a download may make no progress (the client stopped reading) before its connection is closed.
 * A streamed answer would wait for ever; a sending thread should not.
 */
export const SENDFILE_IDLE_MS = 2 * 60_000;

let native: NativeSendfile | null | undefined;
let idleMs = SENDFILE_IDLE_MS;

/** Loads a built sendfile module; null when there is none or it does not load on this Node. */
export function loadSendfile(file: string): NativeSendfile | null {
  try {
    const loaded = createRequire(import.meta.url)(file) as Partial<NativeSendfile>;
    return typeof loaded.start === 'function' && typeof loaded.cancel === 'function' ? (loaded as NativeSendfile) : null;
  } catch {
    return null;
  }
}

/** The module `npm run build` puts in dist/native/, loaded once; null means downloads are streamed. */
export function nativeSendfile(): NativeSendfile | null {
  if (native === undefined) {
    const root = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
    native = loadSendfile(path.join(root, 'dist', 'native', 'sendfile.node'));
  }
  return native;
}

/** Chooses the module downloads use (tests: a freshly built one, or null to stream) and its idle limit. */
export function useNativeSendfile(module: NativeSendfile | null, options: { idleMs?: number } = {}): void {
  native = module;
  idleMs = options.idleMs ?? SENDFILE_IDLE_MS;
}

/**
 * Downloads sent by threads at once; beyond this they are streamed. Each thread mostly sleeps waiting for
 * its client, but thousands of them would be a poor use of the process.
 */
export const MAX_SENDFILE_JOBS = 256;
let activeJobs = 0;

/** Errors that only mean the client went away: the connection is closed without logging a failure. */
const CLIENT_GONE = new Set(['EPIPE', 'ECONNRESET', 'ECANCELED']);
const EMPTY = Buffer.alloc(0);

/** The socket's descriptor when an answer can be sent with sendfile: plain TCP, length known, nothing sent yet. */
function sendfileSocket(res: ServerResponse, length: number): number | null {
  const socket = res.socket as (ServerResponse['socket'] & { encrypted?: boolean; _handle?: { fd?: number } }) | null;
  if (!socket || socket.encrypted || res.headersSent || res.writableEnded || socket.destroyed) return null;
  if (Number(res.getHeader('content-length')) !== length) return null;
  const fd = socket._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/** fs.ReadStream's constructor as Node has it (the typings leave out the path argument). */
type ReadStreamOnHandle = new (
  path: undefined,
  options: { fd: FileHandle; start?: number; end?: number; highWaterMark: number },
) => fs.ReadStream;

/**
 * A byte range of a file on disk, read for an answer. Piped into a plain-TCP ServerResponse whose
 * Content-Length is the range's length, the bytes go from the page cache to the socket with sendfile(2) on
 * a thread of the native module: no JavaScript buffers, no event-loop turns per chunk. Anywhere else
 * (TLS, tests through inject, no native module) it is an ordinary file stream.
 */
export class DiskFileStream extends (fs.ReadStream as unknown as ReadStreamOnHandle) {
  private readonly first: number;
  private readonly last: number | undefined;

  constructor(
    private readonly handle: FileHandle,
    options: { start?: number; end?: number; highWaterMark: number },
  ) {
    super(undefined, { fd: handle, start: options.start, end: options.end, highWaterMark: options.highWaterMark });
    this.first = options.start ?? 0;
    this.last = options.end;
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const module = nativeSendfile();
    const eligible = module && options?.end !== false && activeJobs < MAX_SENDFILE_JOBS && destination instanceof ServerResponse;
    const length = eligible ? this.rangeLength() : 0;
    const socketFd = eligible ? sendfileSocket(destination, length) : null;
    if (socketFd === null) return super.pipe(destination, options);
    this.sendfile(module!, destination as unknown as ServerResponse, socketFd, length);
    return destination;
  }

  /**
   * Bytes from the first to the last of the range; a whole-file read runs to the file's current end. NaN
   * when the file can no longer be asked (it was closed): no Content-Length matches, so it streams.
   */
  private rangeLength(): number {
    if (this.last !== undefined) return this.last - this.first + 1;
    try {
      // On an open descriptor fstat only reads the inode: cheaper than a trip through the thread pool.
      return fs.fstatSync(this.handle.fd).size - this.first;
    } catch {
      return NaN;
    }
  }

  private sendfile(module: NativeSendfile, res: ServerResponse, socketFd: number, length: number) {
    const finish = () => {
      // The file's part is over: this stream ends (closing the file) and the answer ends with no more bytes.
      this.push(null);
      this.resume();
      res.end();
    };
    res.flushHeaders();
    // A zero-byte write completes after everything written before it, so the headers are in the kernel
    // ahead of the file's bytes.
    res.socket!.write(EMPTY, (error) => {
      if (error || res.destroyed) {
        res.destroy();
        return void this.destroy();
      }
      if (length === 0) return finish();
      let job: object;
      try {
        job = module.start(socketFd, this.handle.fd, this.first, length, idleMs, (errno, sent) => {
          activeJobs -= 1;
          res.off('close', onClose);
          if (errno === 0) return finish();
          // Part of the body is out: closing the connection is the only way to tell the client it is cut short.
          const name = getSystemErrorName(-errno);
          res.destroy();
          this.destroy(CLIENT_GONE.has(name) ? undefined : Object.assign(new Error(`sendfile stopped after ${sent} of ${length} bytes: ${name}`), { code: name }));
        });
      } catch {
        // No thread to be had (the system's limit): no byte of the body is out yet, so it is streamed.
        return void super.pipe(res);
      }
      activeJobs += 1;
      // A connection closed under the thread (the client left, or the server is shutting down) stops it.
      const onClose = () => module.cancel(job);
      res.once('close', onClose);
    });
  }
}
