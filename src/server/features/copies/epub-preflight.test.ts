import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { digitalAssets } from '../../db/schema';
import { seedFilesDir } from '../../platform/operations/seed';
import { type TestApp, createTestApp } from '../../test/helpers';
import { adminAgent, insertBook } from '../admin/test-fixtures';
import { preflightEpub } from './epub-preflight';
import { makeTestEpub } from './test-support';

describe('EPUB preflight', () => {
  it('passes the seeded sample and a well-made EPUB', async () => {
    expect(await preflightEpub(fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub')))).toEqual([]);
    expect(await preflightEpub(makeTestEpub())).toEqual([]);
  });

  it('names a missing dc:language and a compressed mimetype', async () => {
    expect(await preflightEpub(makeTestEpub({ language: null, compressMimetype: true }))).toEqual([
      'The "mimetype" entry is compressed; it must be stored without compression.',
      'The package file has no dc:language.',
    ]);
  });

  it('names a bad language, a missing title, missing files and a wrong first entry', async () => {
    expect(await preflightEpub(makeTestEpub({ language: 'English', title: null }))).toEqual([
      'The package file has no dc:title.',
      'The dc:language "English" is not a valid language tag (for example en or en-GB).',
    ]);
    const noContainer = Buffer.from(zipSync({ mimetype: [new TextEncoder().encode('application/epub+zip'), { level: 0 }] }));
    expect(await preflightEpub(noContainer)).toEqual(['META-INF/container.xml is missing.']);
    const wrongFirst = Buffer.from(zipSync({ 'a.txt': new TextEncoder().encode('x') }));
    expect((await preflightEpub(wrongFirst))[0]).toBe('The first entry of the archive must be the file "mimetype".');
    expect(await preflightEpub(Buffer.from('not a zip at all'))).toEqual(['The file is not a ZIP archive (an EPUB is a ZIP container).']);
  });

  describe('on upload', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ seed: false });
    });
    afterAll(() => t.close());

    const BOUNDARY = '----preflightBoundary';
    const body = (data: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="book.epub"\r\nContent-Type: application/epub+zip\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]);

    it('refuses a broken EPUB with every problem named, and keeps nothing', async () => {
      const book = await insertBook(t);
      const { agent } = await adminAgent(t);
      const res = await agent.request({
        method: 'PUT',
        url: `/api/admin/books/${book.id}/files/ebook`,
        payload: body(makeTestEpub({ language: null, compressMimetype: true })),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'EPUB_INVALID',
        message:
          'This EPUB would be refused by Kindle and e-readers. 2 problems: 1. The "mimetype" entry is compressed; it must be stored without compression. 2. The package file has no dc:language.',
      });
      const rows = await t.database.db.select().from(digitalAssets).where(and(eq(digitalAssets.bookId, book.id), eq(digitalAssets.format, 'ebook')));
      expect(rows).toHaveLength(0);

      const good = await agent.request({
        method: 'PUT',
        url: `/api/admin/books/${book.id}/files/ebook`,
        payload: body(makeTestEpub()),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      expect(good.statusCode, good.body).toBe(201);
    });
  });
});
