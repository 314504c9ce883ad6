import { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, digitalAssets } from '../../db/schema';
import { createUser, signedInAgent, type TestAgent, type TestApp } from '../../test/helpers';
import { detectType } from './file-types';
import { makeTestEpub } from '../copies/test-support';
import { insertBook, insertPurchase, unseededAppWithAdmin } from './test-fixtures';

/** A small real EPUB: uploads of an ebook pass the EPUB preflight (which the copies suite tests). */
const epub = (body = 'chapter one') => makeTestEpub({ body });
const pdf = () => Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
const mp3 = () => Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(64, 1)]);
const m4a = () => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(32)]);

const BOUNDARY = '----adminUploadTestBoundary';
function multipart(fileName: string, data: Buffer, contentType = 'application/octet-stream') {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return Buffer.concat([head, data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}
const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

function upload(agent: TestAgent, bookId: number, format: string, payload: Buffer | Readable) {
  return agent.request({ method: 'PUT', url: `/api/admin/books/${bookId}/files/${format}`, payload, headers: multipartHeaders });
}

describe('file type detection', () => {
  it('recognises EPUB, PDF, MP3 and M4A by their bytes', () => {
    expect(detectType(epub())?.contentType).toBe('application/epub+zip');
    expect(detectType(pdf())?.contentType).toBe('application/pdf');
    expect(detectType(mp3())?.contentType).toBe('audio/mpeg');
    expect(detectType(Buffer.from([0xff, 0xfb, 0x90, 0x00]))?.contentType).toBe('audio/mpeg');
    expect(detectType(m4a())?.contentType).toBe('audio/mp4');
    // A plain zip is not an EPUB, text is nothing.
    const zip = Buffer.alloc(64);
    zip.write('PK\u0003\u0004', 0, 'latin1');
    expect(detectType(zip)).toBeNull();
    expect(detectType(Buffer.from('<html><script>'))).toBeNull();
  });
});

describe('admin files API', () => {
  let t: TestApp;
  let agent: TestAgent;
  let bookId: number;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
    bookId = (await insertBook(t, { featured: true })).id;
  });
  afterAll(async () => t.close());

  it('uploads an EPUB as the ebook and lists it', async () => {
    const res = await upload(agent, bookId, 'ebook', multipart('What We Owe (final).epub', epub()));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ bookId, format: 'ebook', fileName: 'What-We-Owe-final.epub', contentType: 'application/epub+zip', version: '1.0' });
    const list = (await agent.get('/api/admin/files')).json();
    expect(list).toEqual([expect.objectContaining({ bookId, format: 'ebook' })]);
  });

  it('rejects a file whose bytes do not match the format, whatever it claims', async () => {
    const fake = await upload(agent, bookId, 'ebook', multipart('book.epub', Buffer.from('<html>not a book</html>'), 'application/epub+zip'));
    expect(fake.statusCode).toBe(415);
    expect(fake.json()).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE', message: 'The E-Book file must be an EPUB file.' });
    const pdfAsAudio = await upload(agent, bookId, 'audiobook', multipart('a.mp3', pdf(), 'audio/mpeg'));
    expect(pdfAsAudio.statusCode).toBe(415);
    expect((await upload(agent, bookId, 'audiobook', multipart('a.m4a', m4a()))).statusCode).toBe(201);
    expect((await upload(agent, bookId, 'pdf', multipart('sample.pdf', pdf()))).statusCode).toBe(201);
    expect((await agent.request({ method: 'PUT', url: `/api/admin/books/${bookId}/files/hardcover`, payload: multipart('x.pdf', pdf()), headers: multipartHeaders })).statusCode).toBe(400);
  });

  it('rejects an oversized file with 413 without keeping anything', async () => {
    const before = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.bookId, bookId));
    // 50 MB + 1 byte of "EPUB", streamed so the test does not hold it in memory twice.
    const total = 50 * 1024 * 1024 + 1;
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    let sent = 0;
    const stream = new Readable({
      read() {
        if (sent === 0) {
          this.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.epub"\r\nContent-Type: application/epub+zip\r\n\r\n`));
          this.push(epub());
          sent = epub().length;
        } else if (sent < total) {
          const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
          sent += part.length;
          this.push(part);
        } else {
          this.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
          this.push(null);
        }
      },
    });
    const res = await upload(agent, bookId, 'ebook', stream);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', message: 'The file is too large. The limit for the E-Book is 50 MB.' });
    const after = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.bookId, bookId));
    expect(after).toEqual(before);
  });

  it('refuses a request that is not multipart, and a missing book', async () => {
    const json = await agent.put(`/api/admin/books/${bookId}/files/ebook`, { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect((await upload(agent, 999999, 'ebook', multipart('b.epub', epub()))).statusCode).toBe(404);
  });

  it('replaces a file in place: same asset, next version, and a past buyer downloads the new file', async () => {
    const reader = await createUser(t.database);
    await insertPurchase(t, { userId: reader.id, bookId, format: 'ebook', price: 999 });
    const [before] = await t.database.db.select().from(digitalAssets).where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'ebook')));

    const res = await upload(agent, bookId, 'ebook', multipart('second-edition.epub', epub('chapter one, revised')));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: before.id, version: '2.0', fileName: 'second-edition.epub' });
    // The old bytes are gone from the store; the new ones are there.
    expect(await t.app.deps.files.stat(before.fileUrl)).toBeNull();

    const buyer = await signedInAgent(t.app, reader.id);
    const link = await buyer.get(`/api/digital-assets/${before.id}/download`);
    expect(link.statusCode).toBe(200);
    const file = await t.app.inject({ url: link.json().downloadUrl });
    expect(file.statusCode).toBe(200);
    expect(Buffer.from(unzipSync(file.rawPayload)['EPUB/c1.xhtml']).toString('utf8')).toContain('chapter one, revised');

    const actions = (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, String(before.id)))).map((e) => e.action);
    expect(actions).toEqual(['file.upload', 'file.replace']);
  });
});
