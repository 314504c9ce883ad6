import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { IMAGE_UPLOAD_LIMIT, UPLOAD_LIMITS } from '@shared/schemas/admin';
import { digitalAssets } from '../../db/schema';
import { type TestApp, createTestApp } from '../../test/helpers';
import { makeTestEpub } from '../copies/test-support';
import { adminAgent, insertBook } from './test-fixtures';

const BOUNDARY = '----limitTestBoundary';
const partHead = (fileName: string, type: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`);
const partTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/**
 * Uploads over a real socket whose bytes stop exactly at the size limit for a moment before the rest
 * arrives: the parser has then handed over a complete-looking file of exactly the limit, and only the
 * later bytes tell it was too large.
 */
describe('uploads over the limit that pause at the limit', () => {
  let t: TestApp;
  let base = '';
  let headers: Record<string, string>;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { agent } = await adminAgent(t);
    const csrf = await agent.fetchCsrf();
    headers = { cookie: agent.cookieHeader()!, 'x-csrf-token': csrf, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    bookId = (await insertBook(t, { featured: true })).id;
  });
  afterAll(async () => t.close());

  function send(url: string, method: string, pieces: Array<Buffer | number>) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${base}${url}`, { method, headers });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      (async () => {
        for (const piece of pieces) {
          // A number is the client's pause mid-upload (the scenario itself), not a wait for the server.
          if (typeof piece === 'number') await new Promise((r) => setTimeout(r, piece));
          else await new Promise<void>((r) => (req.write(piece) ? r() : req.once('drain', () => r())));
        }
        req.end();
      })().catch(reject);
    });
  }

  const asset = async (format: 'ebook' | 'pdf') =>
    (await t.database.db.select().from(digitalAssets).where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format))))[0];

  /** A file of exactly `size` bytes starting with `start`, split so the first piece ends at the limit. */
  const filled = (start: Buffer, size: number) => {
    const data = Buffer.alloc(size, 0x20);
    start.copy(data);
    return data;
  };

  it.each([
    ['pdf', 'PDF', 'application/pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')],
    ['ebook', 'E-Book', 'application/epub+zip', makeTestEpub({ body: 'the real book' })],
  ] as const)('a %s over the limit answers 413 and the file in service stays whole', async (format, label, type, original) => {
    const url = `/api/admin/books/${bookId}/files/${format}`;
    const first = await send(url, 'PUT', [partHead(`real.${format}`, type), original, partTail]);
    expect([200, 201], first.body).toContain(first.status);
    const before = await asset(format);

    const limit = UPLOAD_LIMITS[format];
    const oversize = await send(url, 'PUT', [partHead(`big.${format}`, type), filled(original, limit), 400, Buffer.alloc(4096, 0x20), partTail]);
    expect(oversize.status, oversize.body).toBe(413);
    expect(JSON.parse(oversize.body)).toMatchObject({ code: 'FILE_TOO_LARGE', message: `The file is too large. The limit for the ${label} is 50 MB.` });

    const after = await asset(format);
    expect(after).toEqual(before);
    expect((await buffer(await t.app.deps.files.read(after.fileUrl))).equals(original)).toBe(true);
    expect(await t.app.deps.files.list(`books/${bookId}/${format}/`)).toEqual([before.fileUrl]);
  });

  it('an image over the limit answers 413 and nothing is stored', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const before = await t.app.deps.files.list('images/');
    const res = await send('/api/admin/images', 'POST', [partHead('cover.png', 'image/png'), filled(png, IMAGE_UPLOAD_LIMIT), 400, Buffer.alloc(4096), partTail]);
    expect(res.status, res.body).toBe(413);
    expect(await t.app.deps.files.list('images/')).toEqual(before);
  });

  it('a file of exactly the limit is accepted', async () => {
    const start = Buffer.from('%PDF-1.7\n');
    const res = await send(`/api/admin/books/${bookId}/files/pdf`, 'PUT', [partHead('exact.pdf', 'application/pdf'), filled(start, UPLOAD_LIMITS.pdf), 300, partTail]);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ fileSizeKb: UPLOAD_LIMITS.pdf / 1024 });
  });

  it.each([
    ['a part cut off before its boundary', Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 and no end`)],
    ['a part without headers', Buffer.from(`--${BOUNDARY}\r\n%PDF-1.7\r\n--${BOUNDARY}--\r\n`)],
    ['garbage', Buffer.from('this is not multipart at all')],
    ['a header line that never ends', Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"`)],
  ])('a malformed multipart body (%s) answers 400 and changes nothing', async (_name, body) => {
    const before = await asset('pdf');
    for (const url of [`/api/admin/books/${bookId}/files/pdf`, '/api/admin/images']) {
      const res = await send(url, url.endsWith('images') ? 'POST' : 'PUT', [body]);
      expect(res.status, `${url}: ${res.body}`).toBe(400);
    }
    expect(await asset('pdf')).toEqual(before);
  });
});
