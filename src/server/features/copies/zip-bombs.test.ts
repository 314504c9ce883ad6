import { and, desc, eq } from 'drizzle-orm';
import { FILE_NOT_READY_MESSAGE } from '@shared/schemas/library';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, digitalAssets } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { seedFilesDir } from '../../platform/operations/seed';
import { type BombEntry, deflatedZeros, pdfWithStreams, watch, zipOf, zlibZeros } from '../../test/zip-bombs';
import { adminAgent, insertPurchase } from '../admin/test-fixtures';
import { featuredBookId, newBuyer } from '../checkout/test-support';
import { postFile, putFile } from './test-support';

const MB = 1024 * 1024;
const TOTAL_REFUSAL = 'This file was refused as a zip bomb: it would unpack to 1,024 MB, and the limit is 256 MB.';
const LYING_REFUSAL = 'This file was refused as a zip bomb: "EPUB/c1.xhtml" unpacks to more than the 1 KB its archive declares.';

const stored = (name: string, text: string): BombEntry => ({ name, packed: Buffer.from(text), declaredSize: Buffer.byteLength(text), method: 0 });

/**
 * An EPUB whose every part is in order except its one chapter: 1 GB of zeros in about 1 MB, declared as
 * such (`honest`) or as a 1 KB page (`lying`, which only inflating can catch).
 */
function bombEpub(kind: 'honest' | 'lying'): Buffer {
  return zipOf([
    stored('mimetype', 'application/epub+zip'),
    stored(
      'META-INF/container.xml',
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    stored(
      'EPUB/package.opf',
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:x</dc:identifier><dc:title>Bomb</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
    ),
    { name: 'EPUB/c1.xhtml', packed: deflatedZeros(1024), declaredSize: kind === 'honest' ? 1024 * MB : 1024 },
  ]);
}

describe('zip bombs', () => {
  let t: TestApp;
  let admin: TestAgent;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminAgent(t)).agent;
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  /** Sends a bomb while a visitor asks for a page: the bomb is refused fast and flat, the visitor is answered. */
  async function refusedMeanwhile(send: () => Promise<{ statusCode: number; json(): unknown }>) {
    const watched = await watch(async () => {
      const bomb = send();
      const other = t.app.inject({ url: '/healthz' });
      return { bomb: await bomb, other: await other };
    });
    expect(watched.result.other.statusCode).toBe(200);
    expect(watched.ms).toBeLessThan(1000);
    expect(watched.rssGrowth).toBeLessThan(50 * MB);
    // The event loop kept turning (before the limits a bomb held it for 5 to 25 seconds); the margin is for
    // a busy machine, where an ordinary upload with its audit row already holds it for up to 100 ms.
    expect(watched.longestStall).toBeLessThan(500);
    expect(watched.result.bomb.statusCode).toBe(400);
    return watched.result.bomb.json();
  }

  it('Trace a Copy refuses a bomb that declares its size, and one that lies about it', async () => {
    const [honest, lying] = [bombEpub('honest'), bombEpub('lying')];
    expect(await refusedMeanwhile(() => postFile(admin, '/api/admin/trace', 'leak.epub', honest))).toEqual({
      code: 'ZIP_BOMB',
      message: TOTAL_REFUSAL,
      fields: { file: TOTAL_REFUSAL },
    });
    expect(await refusedMeanwhile(() => postFile(admin, '/api/admin/trace', 'leak.epub', lying))).toEqual({
      code: 'ZIP_BOMB',
      message: LYING_REFUSAL,
      fields: { file: LYING_REFUSAL },
    });
    const audited = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'copy.trace')).orderBy(desc(auditLog.id)).limit(1);
    expect(audited[0].details).toEqual({ fileName: 'leak.epub', bytes: lying.length, found: false, refused: 'ZIP_BOMB' });
    // Eight entries of 99 MB each, each under any per-file cap: the shape that grew the process by 754 MB.
    const spread = zipOf(Array.from({ length: 8 }, (_, i) => ({ name: `OEBPS/part-${i}.xhtml`, packed: deflatedZeros(99), declaredSize: 99 * MB })));
    expect(await refusedMeanwhile(() => postFile(admin, '/api/admin/trace', 'leak.epub', spread))).toMatchObject({
      code: 'ZIP_BOMB',
      message: 'This file was refused as a zip bomb: it would unpack to 792 MB, and the limit is 256 MB.',
    });
  });

  it('the master e-book upload refuses both bombs and keeps the old master', async () => {
    const before = await masterKey();
    for (const [kind, message] of [['honest', TOTAL_REFUSAL], ['lying', LYING_REFUSAL]] as const) {
      const bomb = bombEpub(kind);
      const answer = await refusedMeanwhile(() => putFile(admin, `/api/admin/books/${bookId}/files/ebook`, 'book.epub', bomb));
      expect(answer, kind).toEqual({ code: 'ZIP_BOMB', message, fields: { file: message } });
    }
    expect(await masterKey()).toBe(before);
  });

  async function masterKey(format: 'ebook' | 'pdf' = 'ebook') {
    const [asset] = await t.database.db
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format)));
    return asset.fileUrl;
  }

  it('a bomb stored before the limits is refused to the sample and the reader once, then remembered', async () => {
    const { agent: reader } = await newBuyer(t, bookId, ['ebook']);
    // What an older version let through: the bomb is the stored master.
    const key = `books/${bookId}/ebook/stored-bomb.epub`;
    await t.app.deps.files.put(key, bombEpub('lying'), 'application/epub+zip');
    await t.database.db
      .update(digitalAssets)
      .set({ fileUrl: key, updatedAt: new Date() })
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'ebook')));
    const reads = vi.spyOn(t.app.deps.files, 'read');
    const readsOfBomb = () => reads.mock.calls.filter(([k]) => k === key).length;

    for (let i = 0; i < 3; i += 1) {
      const sample = await watch(() => t.app.inject({ url: '/api/reading/sample' }));
      expect(sample.result.statusCode).toBe(404);
      expect(sample.result.json()).toMatchObject({ code: 'SAMPLE_UNAVAILABLE', message: 'The free sample is not available right now.' });
      expect(sample.ms).toBeLessThan(1000);
      expect(sample.rssGrowth).toBeLessThan(50 * MB);

      const content = await watch(() => reader.get(`/api/library/${bookId}/ebook/content`));
      expect(content.result.statusCode).toBe(404);
      expect(content.result.json()).toMatchObject({ message: FILE_NOT_READY_MESSAGE });
      expect(content.ms).toBeLessThan(1000);
    }
    // Read once, refused once: every later request is answered from the remembered refusal.
    expect(readsOfBomb()).toBe(1);
    reads.mockRestore();
  });

  describe('PDF bombs (compressed streams pdf-lib would inflate on the event loop)', () => {
    const pdfRefusal = (object: number) =>
      `This PDF was refused as a decompression bomb: object ${object} would unpack to more than 100 times its packed size, and the limit is 100 times.`;
    /** 1 GB of zeros in about 1 MB: as the page's content stream, or as an object stream pdf-lib inflates on load. */
    const contentBomb = () => pdfWithStreams([zlibZeros(1024)]);
    const objectStreamBomb = () => pdfWithStreams([deflateSync(Buffer.from('BT ET'))], zlibZeros(1024));
    const seededPdf = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-sample.pdf'));
    // The store does not sell the PDF (a legacy format), so its purchase is made directly.
    const pdfReader = async () => {
      const user = await createUser(t.database);
      await insertPurchase(t, { userId: user.id, bookId, format: 'pdf', price: 999 });
      return signedInAgent(t.app, user.id);
    };

    it('Trace a Copy refuses a PDF bomb in its content or its object stream, and audits the try', async () => {
      for (const [bomb, message] of [[await contentBomb(), pdfRefusal(5)], [await objectStreamBomb(), pdfRefusal(6)]] as const) {
        expect(await refusedMeanwhile(() => postFile(admin, '/api/admin/trace', 'leak.pdf', bomb))).toEqual({ code: 'ZIP_BOMB', message, fields: { file: message } });
      }
      const audited = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'copy.trace')).orderBy(desc(auditLog.id)).limit(1);
      expect(audited[0].details).toMatchObject({ fileName: 'leak.pdf', found: false, refused: 'ZIP_BOMB' });
    });

    it('the PDF master upload refuses both bombs and keeps the old master; the seeded PDF still uploads', async () => {
      const before = await masterKey('pdf');
      for (const [bomb, message] of [[await contentBomb(), pdfRefusal(5)], [await objectStreamBomb(), pdfRefusal(6)]] as const) {
        const answer = await refusedMeanwhile(() => putFile(admin, `/api/admin/books/${bookId}/files/pdf`, 'book.pdf', bomb));
        expect(answer).toEqual({ code: 'ZIP_BOMB', message, fields: { file: message } });
      }
      expect(await masterKey('pdf')).toBe(before);

      const honest = await putFile(admin, `/api/admin/books/${bookId}/files/pdf`, 'book.pdf', seededPdf);
      expect(honest.statusCode, honest.body).toBe(200);
      expect(await masterKey('pdf')).not.toBe(before);
      // A reader's personal copy is built from it as before.
      const reader = await pdfReader();
      const copy = await reader.get(`/api/library/${bookId}/pdf/content`);
      expect(copy.statusCode, copy.body).toBe(200);
      expect(copy.headers['content-type']).toBe('application/pdf');
      expect(copy.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(copy.rawPayload.equals(seededPdf)).toBe(false);
    });

    it('a PDF bomb stored before the check is refused to the reader once, then remembered', async () => {
      const reader = await pdfReader();
      const key = `books/${bookId}/pdf/stored-bomb.pdf`;
      await t.app.deps.files.put(key, await objectStreamBomb(), 'application/pdf');
      await t.database.db
        .update(digitalAssets)
        .set({ fileUrl: key, updatedAt: new Date() })
        .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'pdf')));
      const reads = vi.spyOn(t.app.deps.files, 'read');
      const readsOfBomb = () => reads.mock.calls.filter(([k]) => k === key).length;
      for (let i = 0; i < 3; i += 1) {
        const content = await watch(() => reader.get(`/api/library/${bookId}/pdf/content`));
        expect(content.result.statusCode).toBe(404);
        expect(content.result.json()).toMatchObject({ message: FILE_NOT_READY_MESSAGE });
        expect(content.ms).toBeLessThan(1000);
        expect(content.rssGrowth).toBeLessThan(50 * MB);
      }
      expect(readsOfBomb()).toBe(1);
      reads.mockRestore();
    });
  });
});
