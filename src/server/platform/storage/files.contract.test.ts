import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { type FileStore, DiskFileStore, FileMissingError } from './files';
import { startLocalS3, type LocalS3 } from '../../test/s3-server';

/** A body that sends some bytes and then fails, like an upload whose connection drops. */
function brokenStream(bytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(bytes, 7));
      } else {
        this.destroy(new Error('connection reset'));
      }
    },
  });
}

const read = async (store: FileStore, key: string, range?: { start: number; end: number }) =>
  buffer(await store.read(key, range));

/**
 * One contract, two stores: what the site relies on from a file store holds on local disk and on a real
 * S3-compatible server reached through the real AWS SDK.
 */
describe.each([
  ['disk', 'disk'],
  ['S3', 's3'],
] as const)('file store contract: %s', (_label, kind) => {
  let store: FileStore;
  let s3: LocalS3 | null = null;
  let root = '';

  beforeAll(async () => {
    if (kind === 's3') {
      s3 = await startLocalS3();
      store = s3.store();
    } else {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'site-files-'));
      store = new DiskFileStore(root);
    }
  });
  afterAll(async () => {
    await s3?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('says what kind of store it is', () => {
    expect(store.kind).toBe(kind);
  });

  it('puts, heads and gets a file whole', async () => {
    const data = Buffer.from('%PDF-1.7 the whole book');
    const stored = await store.put('books/1/book.pdf', data, 'application/pdf');
    expect(stored.size).toBe(data.length);
    expect((await store.stat('books/1/book.pdf'))?.size).toBe(data.length);
    expect((await read(store, 'books/1/book.pdf')).toString()).toBe('%PDF-1.7 the whole book');
  });

  it('says where the bytes are, for the delivery adapters, and refuses an unsafe key', async () => {
    const data = Buffer.from('located');
    await store.put('books/4/where.txt', data, 'text/plain');
    const where = store.locate('books/4/where.txt');
    if (where.kind === 'disk') {
      expect(where.path).toBe(path.join(root, 'books', '4', 'where.txt'));
      expect(fs.readFileSync(where.path).equals(data)).toBe(true);
    } else {
      expect(where).toMatchObject({ kind: 's3', bucket: s3!.options.bucket, key: 'books/4/where.txt' });
      const object = await where.client.send(new GetObjectCommand({ Bucket: where.bucket, Key: where.key }));
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(data)).toBe(true);
    }
    expect(() => store.locate('../outside')).toThrow(/unsafe file key/);
  });

  it('gets a byte range, both ends inclusive', async () => {
    await store.put('books/2/range.txt', Buffer.from('0123456789'), 'text/plain');
    expect((await read(store, 'books/2/range.txt', { start: 2, end: 5 })).toString()).toBe('2345');
    expect((await read(store, 'books/2/range.txt', { start: 9, end: 9 })).toString()).toBe('9');
  });

  it('replaces a file under the same key', async () => {
    await store.put('books/3/a.txt', Buffer.from('first version, longer'), 'text/plain');
    await store.put('books/3/a.txt', Buffer.from('second'), 'text/plain');
    expect((await read(store, 'books/3/a.txt')).toString()).toBe('second');
    expect((await store.stat('books/3/a.txt'))?.size).toBe(6);
  });

  it('deletes a file, and deleting it again is fine', async () => {
    await store.put('books/4/gone.txt', Buffer.from('x'), 'text/plain');
    await store.remove('books/4/gone.txt');
    expect(await store.stat('books/4/gone.txt')).toBeNull();
    await expect(store.remove('books/4/gone.txt')).resolves.toBeUndefined();
  });

  it('reports a missing object: stat is null, read rejects with FileMissingError', async () => {
    expect(await store.stat('books/none/missing.pdf')).toBeNull();
    await expect(store.read('books/none/missing.pdf')).rejects.toBeInstanceOf(FileMissingError);
  });

  it('streams a file in larger than one multipart part', async () => {
    const size = 12 * 1024 * 1024 + 5;
    const chunk = Buffer.alloc(1024 * 1024, 1);
    let left = size;
    const source = new Readable({
      read() {
        if (left <= 0) return this.push(null);
        const n = Math.min(left, chunk.length);
        left -= n;
        this.push(chunk.subarray(0, n));
      },
    });
    const stored = await store.write('books/5/big.bin', source, 'application/octet-stream');
    expect(stored.size).toBe(size);
    expect((await store.stat('books/5/big.bin'))?.size).toBe(size);
    const tail = await read(store, 'books/5/big.bin', { start: size - 3, end: size - 1 });
    expect([...tail]).toEqual([1, 1, 1]);
  });

  it('an interrupted write leaves the previous file in service and nothing partial', async () => {
    await store.put('books/6/book.epub', Buffer.from('previous'), 'application/epub+zip');
    const before = await store.list('books/6/');
    await expect(store.write('books/6/book.epub', brokenStream(10 * 1024 * 1024), 'application/epub+zip')).rejects.toThrow(
      'connection reset',
    );
    expect((await read(store, 'books/6/book.epub')).toString()).toBe('previous');
    expect(await store.list('books/6/')).toEqual(before);
    if (kind === 'disk') expect(fs.readdirSync(path.join(root, 'books/6'))).toEqual(['book.epub']);
  });

  it('lists keys under a prefix', async () => {
    await store.put('lists/a/1.txt', Buffer.from('1'), 'text/plain');
    await store.put('lists/a/2.txt', Buffer.from('2'), 'text/plain');
    await store.put('lists/b/3.txt', Buffer.from('3'), 'text/plain');
    expect(await store.list('lists/a/')).toEqual(['lists/a/1.txt', 'lists/a/2.txt']);
  });

  it('refuses keys that could escape the store', async () => {
    await expect(store.put('../escape.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow('unsafe file key');
  });
});
