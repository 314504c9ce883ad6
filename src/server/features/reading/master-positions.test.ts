import { and, eq } from 'drizzle-orm';
import { type Zippable, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingPositions } from '../../db/schema';
import { type TestApp, createUser } from '../../test/helpers';
import { storeApp } from '../checkout/test-support';
import { adminAgent } from '../admin/test-fixtures';
import { MULTIPART_CONTENT_TYPE, multipartBody } from '../copies/test-support';
import { carryPositionsToNewMaster } from './service';

const enc = (s: string) => new TextEncoder().encode(s);

/** A minimal EPUB whose spine lists these chapter files, in this order. */
function epubWith(chapters: string[]): Buffer {
  const manifest = chapters.map((c) => `<item id="${c}" href="text/${c}.xhtml" media-type="application/xhtml+xml"/>`).join('');
  const spine = chapters.map((c) => `<itemref idref="${c}"/>`).join('');
  const page = (title: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en"><head><meta charset="UTF-8"/><title>${title}</title></head><body>${body}</body></html>`;
  const files: Zippable = {
    mimetype: [enc('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': enc(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/content.opf': enc(
      `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000002</dc:identifier><dc:title>Test Book</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${manifest}</manifest><spine>${spine}</spine></package>`,
    ),
    'OEBPS/nav.xhtml': enc(page('Contents', `<nav epub:type="toc"><ol>${chapters.map((c) => `<li><a href="text/${c}.xhtml">${c}</a></li>`).join('')}</ol></nav>`)),
  };
  for (const c of chapters) files[`OEBPS/text/${c}.xhtml`] = enc(page(c, `<p>${c}</p>`));
  return Buffer.from(zipSync(files, { mtime: new Date('2026-01-01T00:00:00Z') }));
}

describe('replacing the e-book master keeps readers in their chapter', () => {
  let t: TestApp;
  let bookId: number;
  beforeAll(async () => ({ t, bookId } = await storeApp()));
  afterAll(() => t.close());

  it('moves each place to where its chapter now stands, drops only places in a chapter that is gone', async () => {
    await t.app.deps.files.put('test/old.epub', epubWith(['ch1', 'ch2', 'ch3']), 'application/epub+zip');
    // A new opening chapter, chapter 2 cut.
    await t.app.deps.files.put('test/new.epub', epubWith(['prologue', 'ch1', 'ch3']), 'application/epub+zip');
    const place = async (locator: string) => {
      const user = await createUser(t.database);
      await t.database.db.insert(readingPositions).values({ userId: user.id, bookId, format: 'ebook', locator, progress: 0.4, updatedAt: new Date() });
      return user.id;
    };
    const inChapter1 = await place('epubcfi(/6/2[ch1]!/4/2/1:10)');
    const inChapter2 = await place('epubcfi(/6/4!/4/8)');
    const inChapter3 = await place('epubcfi(/6/6!/4/2)');
    const locatorOf = async (userId: number) =>
      (await t.database.db.select().from(readingPositions).where(and(eq(readingPositions.userId, userId), eq(readingPositions.bookId, bookId))))[0]?.locator ?? null;

    expect(await carryPositionsToNewMaster(t.app.deps, bookId, 'test/old.epub', 'test/new.epub')).toEqual({ kept: 2, dropped: 1 });
    expect(await locatorOf(inChapter1)).toBe('epubcfi(/6/4[ch1]!/4/2/1:10)');
    expect(await locatorOf(inChapter2)).toBeNull();
    expect(await locatorOf(inChapter3)).toBe('epubcfi(/6/6!/4/2)');
  });

  it('the author replacing the master through Digital Files carries the places over', async () => {
    const { agent: admin } = await adminAgent(t);
    const upload = (bytes: Buffer) =>
      admin.request({
        method: 'PUT',
        url: `/api/admin/books/${bookId}/files/ebook`,
        payload: multipartBody([{ field: 'file', fileName: 'master.epub', data: bytes }]),
        headers: { 'content-type': MULTIPART_CONTENT_TYPE },
      });
    const first = await upload(epubWith(['ch1', 'ch2', 'ch3']));
    expect(first.statusCode, first.body).toBe(200);
    const user = await createUser(t.database);
    await t.database.db.delete(readingPositions).where(eq(readingPositions.bookId, bookId));
    await t.database.db.insert(readingPositions).values({ userId: user.id, bookId, format: 'ebook', locator: 'epubcfi(/6/6!/4/2)', progress: 0.8, updatedAt: new Date() });
    const second = await upload(epubWith(['ch3', 'ch1']));
    expect(second.statusCode, second.body).toBe(200);
    const [row] = await t.database.db.select().from(readingPositions).where(eq(readingPositions.userId, user.id));
    expect(row.locator).toBe('epubcfi(/6/2!/4/2)');
  });
});
