import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { digitalAssets } from '../../db/schema';
import { DiskFileStore, type FileStore } from '../../platform/storage/files';
import { startLocalS3, type LocalS3 } from '../../test/s3-server';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { featuredBookId } from '../checkout/test-support';

const BOUNDARY = '----streamingUploadBoundary';
const partHead = (fileName: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: audio/mpeg\r\n\r\n`);
const partTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
/** An MP3 (ID3 tag first) of `size` bytes, made of recognisable 1 MB blocks. */
const mp3Block = (i: number) => {
  const block = Buffer.alloc(1024 * 1024, i % 251);
  if (i === 0) block.write('ID3\u0004\u0000', 0, 'latin1');
  return block;
};

function tmpFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp'));
}

async function until(check: () => Promise<boolean> | boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** A store whose writes are told to `onWrite` as they start, so a test can wait for one to end. */
function watchingWrites(store: FileStore, onWrite: (write: Promise<unknown>) => void): FileStore {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      if (name !== 'write') return value.bind(target);
      return (...args: Parameters<FileStore['write']>) => {
        const write = target.write(...args);
        onWrite(write);
        return write;
      };
    },
  });
}

/** Admin uploads over a real socket, streamed to the store: on disk and on a real S3 server. */
describe.each(['disk', 's3'] as const)('streaming admin uploads (%s)', (kind) => {
  let t: TestApp;
  let s3: LocalS3 | null = null;
  let files: FileStore;
  let filesRoot = '';
  let base = '';
  let headers: Record<string, string>;
  let bookId: number;
  const writes: Array<Promise<unknown>> = [];

  beforeAll(async () => {
    if (kind === 's3') {
      s3 = await startLocalS3();
      files = watchingWrites(s3.store(), (write) => writes.push(write));
    } else {
      filesRoot = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'site-upload-'));
      files = watchingWrites(new DiskFileStore(filesRoot), (write) => writes.push(write));
    }
    t = await createTestApp({ files });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const admin = await createUser(t.database, { role: 'admin' });
    const agent: TestAgent = await signedInAgent(t.app, admin.id);
    const csrf = await agent.fetchCsrf();
    headers = { cookie: agent.cookieHeader()!, 'x-csrf-token': csrf, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
    if (filesRoot) fs.rmSync(filesRoot, { recursive: true, force: true });
  });

  const asset = async () =>
    (
      await t.database.db
        .select()
        .from(digitalAssets)
        .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'audiobook')))
    )[0];

  /** PUTs an MP3 of `megabytes` MB; with `cutAfter`, the connection drops after that many MB. */
  function put(megabytes: number, cutAfter?: number) {
    return new Promise<{ status: number; body: string } | 'cut'>((resolve, reject) => {
      const req = http.request(`${base}/api/admin/books/${bookId}/files/audiobook`, { method: 'PUT', headers });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (error) => (cutAfter !== undefined ? resolve('cut') : reject(error)));
      (async () => {
        const write = (b: Buffer) => new Promise<void>((r) => (req.write(b) ? r() : req.once('drain', () => r())));
        await write(partHead('Audiobook.mp3'));
        for (let i = 0; i < megabytes; i += 1) {
          if (cutAfter !== undefined && i === cutAfter) {
            // The client stalls a moment before its connection drops, as a real one does.
            await new Promise((r) => setTimeout(r, 300));
            req.destroy();
            return;
          }
          await write(mp3Block(i));
        }
        await write(partTail);
        req.end();
      })().catch(reject);
    });
  }

  it('streams a 12 MB audiobook into the store and serves it back', async () => {
    const res = await put(12);
    expect(res).not.toBe('cut');
    const { status, body } = res as { status: number; body: string };
    expect([200, 201], body).toContain(status);
    expect(JSON.parse(body)).toMatchObject({ format: 'audiobook', contentType: 'audio/mpeg', fileSizeKb: 12 * 1024 });
    const row = await asset();
    expect((await files.stat(row.fileUrl))?.size).toBe(12 * 1024 * 1024);
    const last = await buffer(await files.read(row.fileUrl, { start: 11 * 1024 * 1024, end: 11 * 1024 * 1024 + 3 }));
    expect([...last]).toEqual([11, 11, 11, 11]);
    if (kind === 'disk') expect(tmpFiles(filesRoot)).toEqual([]);
  });

  it('an interrupted upload leaves the previous file in service and no partial file', async () => {
    const before = await asset();
    const keysBefore = await files.list(`books/${bookId}/audiobook/`);
    expect(keysBefore).toEqual([before.fileUrl]);
    const original = await buffer(await files.read(before.fileUrl));

    const writesBefore = writes.length;
    expect(await put(20, 10)).toBe('cut');
    // The server notices the dropped connection: the store's write of the upload fails, discarding what it
    // had written.
    expect(await until(() => writes.length === writesBefore + 1)).toBe(true);
    expect(await writes[writesBefore].then(() => 'stored', () => 'failed')).toBe('failed');
    if (kind === 'disk') expect(await until(() => tmpFiles(filesRoot).length === 0)).toBe(true);

    const after = await asset();
    expect(after.fileUrl).toBe(before.fileUrl);
    expect(after.version).toBe(before.version);
    expect(await files.list(`books/${bookId}/audiobook/`)).toEqual(keysBefore);
    expect((await buffer(await files.read(before.fileUrl))).equals(original)).toBe(true);
    if (kind === 'disk') expect(tmpFiles(filesRoot)).toEqual([]);
  });
});
