import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testSendfile, watchedSendfile as watched } from '../../test/native-sendfile';
import { DiskFileStream, useNativeSendfile } from './sendfile';

const { module: native, reason, required } = testSendfile();

describe.skipIf(!native && !required)('downloads with sendfile(2)', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sendfile-test-'));
  const file = path.join(workDir, 'big.bin');
  // Larger than the loopback socket's buffers, so a client that does not read makes the thread wait.
  const content = crypto.randomBytes(24 * 1024 * 1024);
  let server: http.Server;
  let port: number;
  const streams: DiskFileStream[] = [];
  let answer: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

  /** Answers like the download route: Content-Length set, a DiskFileStream piped into the response. */
  async function sendFile(req: http.IncomingMessage, res: http.ServerResponse, range?: { start: number; end: number }) {
    const handle = await fsp.open(file, 'r');
    const stream = new DiskFileStream(handle, { highWaterMark: 1 << 20, ...range });
    streams.push(stream);
    // The framework in front of a real download listens for the stream's error and logs it.
    stream.on('error', () => {});
    res.setHeader('content-type', 'application/octet-stream');
    res.setHeader('content-length', String(range ? range.end - range.start + 1 : content.length));
    stream.pipe(res);
  }

  beforeAll(async () => {
    expect(native, `the native module did not build: ${reason}`).not.toBeNull();
    fs.writeFileSync(file, content);
    server = http.createServer((req, res) => void answer(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => {
    useNativeSendfile(null);
    streams.length = 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('sends the whole file with one sendfile job, then the connection serves the next request', async () => {
    const { spy, outcomes } = watched(native!);
    useNativeSendfile(spy);
    answer = (req, res) => sendFile(req, res);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    server.on('connection', (socket) => sockets.add(socket));
    try {
      for (let i = 0; i < 2; i++) {
        const body = await get(`http://127.0.0.1:${port}/`, { agent });
        expect(body.status).toBe(200);
        expect(body.bytes.equals(content)).toBe(true);
      }
    } finally {
      agent.destroy();
    }
    expect(spy.start).toHaveBeenCalledTimes(2);
    // The thread reports a moment after the client has the last byte.
    await vi.waitFor(() => expect(outcomes).toEqual([{ errno: 0, sent: content.length }, { errno: 0, sent: content.length }]));
    // Both answers went over one kept-alive connection.
    expect(sockets.size).toBe(1);
    // The file streams ended cleanly and closed their files.
    await vi.waitFor(() => expect(streams.every((s) => s.closed && !s.errored)).toBe(true));
  });

  it('sends a byte range from its offset', async () => {
    const { spy } = watched(native!);
    useNativeSendfile(spy);
    const range = { start: 1_000_003, end: 3_000_000 };
    answer = (req, res) => sendFile(req, res, range);
    const body = await get(`http://127.0.0.1:${port}/`);
    expect(body.bytes.equals(content.subarray(range.start, range.end + 1))).toBe(true);
    expect(spy.start).toHaveBeenCalledWith(expect.any(Number), expect.any(Number), range.start, range.end - range.start + 1, expect.any(Number), expect.any(Function));
  });

  it('streams instead when the answer has no Content-Length of that size (chunked framing)', async () => {
    const { spy } = watched(native!);
    useNativeSendfile(spy);
    answer = async (_req, res) => {
      const stream = new DiskFileStream(await fsp.open(file, 'r'), { highWaterMark: 1 << 20 });
      stream.pipe(res);
    };
    const body = await get(`http://127.0.0.1:${port}/`);
    expect(body.bytes.equals(content)).toBe(true);
    expect(spy.start).not.toHaveBeenCalled();
  });

  it('a client that leaves mid-download stops the thread and closes the file; the server goes on', async () => {
    const { spy, outcomes } = watched(native!);
    useNativeSendfile(spy);
    answer = (req, res) => sendFile(req, res);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`http://127.0.0.1:${port}/`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (error.message.includes('socket hang up') || error.message.includes('aborted') ? undefined : reject(error)));
    });
    await vi.waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 5000 });
    expect(outcomes[0].errno).not.toBe(0);
    expect(outcomes[0].sent).toBeLessThan(content.length);
    await vi.waitFor(() => expect(streams[0].closed).toBe(true));
    const next = await get(`http://127.0.0.1:${port}/`);
    expect(next.bytes.equals(content)).toBe(true);
  });

  it('a connection the server closes under the thread is released at once, not held open by the thread', async () => {
    const { spy, outcomes } = watched(native!);
    useNativeSendfile(spy);
    let served: http.ServerResponse | undefined;
    answer = async (req, res) => {
      served = res;
      await sendFile(req, res);
    };
    const client = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    client.pause();
    // As a shutdown does: the connection is destroyed once the thread is sending and the client is not reading.
    await vi.waitFor(() => expect(spy.start).toHaveBeenCalledTimes(1), { timeout: 5000 });
    served!.socket?.destroy();
    await vi.waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 5000 });
    expect(outcomes[0].errno).not.toBe(0);
    expect(spy.cancel).toHaveBeenCalled();
    // Once the thread has let go, the client sees the connection end.
    const ended = new Promise((resolve) => client.once('close', resolve));
    client.resume();
    await ended;
  });

  it('a client that stops reading is dropped after the idle limit, with the error on the stream', async () => {
    const { spy, outcomes } = watched(native!);
    useNativeSendfile(spy, { idleMs: 300 });
    answer = (req, res) => sendFile(req, res);
    const client = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    client.pause();
    await vi.waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 5000 });
    expect(outcomes[0].errno).toBe(os.constants.errno.ETIMEDOUT);
    await vi.waitFor(() => expect((streams[0].errored as NodeJS.ErrnoException | null)?.code).toBe('ETIMEDOUT'));
    client.destroy();
  });
});

/** GET into memory. */
function get(url: string, options: http.RequestOptions = {}): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
