import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digitalAssets, purchases } from '../../db/schema';
import { seedFilesDir } from '../../platform/operations/seed';
import { type TestApp, type TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { insertPurchase } from '../admin/test-fixtures';
import { assetIdOf, buy, featuredBookId } from '../checkout/test-support';
import { openOwnedFile } from '../library/owned-file';
import { marksIn } from './trace';
import { epubcheckJar, makeTestEpub, runEpubcheck } from './test-support';

const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const jar = epubcheckJar();
// Locally the checks may skip when the tool is missing; CI installs both, so there they always run.
const inCi = Boolean(process.env.CI);
if (!jar && !inCi) console.warn('epubcheck is not installed here (apt-get install epubcheck): the epubcheck test is skipped');
if (!hasPdftotext && !inCi) console.warn('pdftotext is not installed here (apt-get install poppler-utils): the PDF text test is skipped');

const text = (data: Uint8Array) => Buffer.from(data).toString('utf8');

describe('personal copies', () => {
  let t: TestApp;
  let bookId: number;
  const seedEpub = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub'));
  const seedAudio = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-audio-sample.mp3'));

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  async function buyer(format: string, displayName: string) {
    const user = await createUser(t.database, { displayName });
    const agent = await signedInAgent(t.app, user.id);
    if (format === 'pdf') {
      // The store does not sell the PDF (it is a legacy format), so its purchase is made directly.
      const row = await insertPurchase(t, { userId: user.id, bookId, format: 'pdf', price: 999 });
      return { user, agent, orderReference: row.orderReference };
    }
    const paid = await buy(agent, bookId, format);
    return { user, agent, orderReference: paid.orderReference! };
  }
  async function downloadUrl(agent: TestAgent, format: string) {
    const assetId = await assetIdOf(t, bookId, format);
    const res = await agent.get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().downloadUrl as string;
  }

  it("the downloaded EPUB names its buyer right after the cover, and resumes byte for byte", async () => {
    const { agent, orderReference } = await buyer('ebook', 'Ada Quill');
    const url = await downloadUrl(agent, 'ebook');
    const full = await t.app.inject({ method: 'GET', url });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('application/epub+zip');
    expect(full.headers['content-disposition']).toBe(`attachment; filename="What We Owe the Dead.epub"; filename*=UTF-8''What%20We%20Owe%20the%20Dead.epub`);
    const bytes = full.rawPayload;
    expect(bytes.equals(seedEpub)).toBe(false);
    expect(full.headers['content-length']).toBe(String(bytes.length));

    // mimetype first and stored.
    expect(bytes.readUInt16LE(8)).toBe(0);
    expect(bytes.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect(bytes.subarray(38, 58).toString('latin1')).toBe('application/epub+zip');

    const entries = unzipSync(bytes);
    const exLibris = text(entries['OEBPS/ex-libris.xhtml']);
    expect(exLibris).toContain('This copy belongs to Ada Quill');
    expect(exLibris).toContain(`Purchased 21 November 2026 · Order ${orderReference}`);
    const opf = text(entries['OEBPS/content.opf']);
    const spine = [...opf.matchAll(/<itemref idref="([^"]+)"/g)].map((m) => m[1]);
    expect(spine.slice(0, 3)).toEqual(['cover', 'ex-libris', 'title']);
    // The mark is in the package metadata and in the chapters, not only on the ex-libris page.
    const [mark] = await marksIn(bytes);
    expect(opf).toContain(`urn:copy:${mark}`);
    expect(text(entries['OEBPS/chapter-01.xhtml'])).toContain(mark);
    expect(text(entries['OEBPS/title.xhtml'])).toContain(mark);

    // The link served its one transfer: a second whole read of it is refused.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(410);

    // Resume on a new link (the admin gave the download back): the first 1000 bytes, then the rest with
    // If-Range, make the same file, byte for byte.
    const etag = full.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const [purchase] = await t.database.db
      .select()
      .from(purchases)
      .where(and(eq(purchases.orderReference, orderReference), eq(purchases.format, 'ebook')));
    await t.database.db.update(purchases).set({ downloadCount: 0 }).where(eq(purchases.id, purchase.id));
    const second = await downloadUrl(agent, 'ebook');
    const head = await t.app.inject({ method: 'GET', url: second, headers: { range: 'bytes=0-999' } });
    const rest = await t.app.inject({ method: 'GET', url: second, headers: { range: 'bytes=1000-', 'if-range': etag } });
    expect(head.statusCode).toBe(206);
    expect(head.headers.etag).toBe(etag);
    expect(rest.statusCode).toBe(206);
    expect(rest.headers.etag).toBe(etag);
    expect(Buffer.concat([head.rawPayload, rest.rawPayload]).equals(bytes)).toBe(true);
  });

  it.skipIf(!jar && !inCi)('the personal EPUB passes epubcheck with no error', { timeout: 200_000 }, async () => {
    const { agent } = await buyer('ebook', 'Zoë O’Brien & Co');
    const url = await downloadUrl(agent, 'ebook');
    const bytes = (await t.app.inject({ method: 'GET', url })).rawPayload;
    const file = path.join(os.tmpdir(), `copy-${process.pid}-${Date.now()}.epub`);
    fs.writeFileSync(file, bytes);
    try {
      if (!jar) throw new Error('epubcheck is required in CI: apt-get install epubcheck');
      const { code, output } = await runEpubcheck(jar, file);
      expect(output).toContain('No errors or warnings detected');
      expect(code, output).toBe(0);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('two buyers get different fingerprints; the same buyer always the same one', async () => {
    const a = await buyer('ebook', 'Reader A');
    const b = await buyer('ebook', 'Reader B');
    const copyA = (await t.app.inject({ method: 'GET', url: await downloadUrl(a.agent, 'ebook') })).rawPayload;
    const copyB = (await t.app.inject({ method: 'GET', url: await downloadUrl(b.agent, 'ebook') })).rawPayload;
    const [markA] = await marksIn(copyA);
    const [markB] = await marksIn(copyB);
    expect(markA).toMatch(/^wwdc[0-9a-f]{20}$/);
    expect(markB).toMatch(/^wwdc[0-9a-f]{20}$/);
    expect(markA).not.toBe(markB);
    expect(text(unzipSync(copyB)['OEBPS/ex-libris.xhtml'])).toContain('This copy belongs to Reader B');
  });

  it.skipIf(!hasPdftotext && !inCi)("the PDF's extracted text names the buyer on every page", async () => {
    const { agent, orderReference } = await buyer('pdf', 'Ada Quill');
    const url = await downloadUrl(agent, 'pdf');
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(os.tmpdir(), `copy-${process.pid}-${Date.now()}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    try {
      const extracted = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
      const pages = extracted.split('\f').filter((p) => p.trim());
      expect(pages.length).toBeGreaterThan(0);
      for (const page of pages) expect(page).toContain(`Licensed to Ada Quill · order ${orderReference}`);
      const info = execFileSync('pdfinfo', [file]).toString('utf8');
      const [mark] = await marksIn(res.rawPayload);
      expect(info).toContain(mark);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('the audiobook is the master file, untouched', async () => {
    const { agent } = await buyer('audiobook', 'Listener');
    const res = await t.app.inject({ method: 'GET', url: await downloadUrl(agent, 'audiobook') });
    expect(res.rawPayload.equals(seedAudio)).toBe(true);
  });

  it('replacing the master rebuilds the copy lazily, with the same fingerprint', async () => {
    const { user } = await buyer('ebook', 'Early Buyer');
    const [purchase] = await t.database.db
      .select()
      .from(purchases)
      .where(and(eq(purchases.userId, user.id), eq(purchases.format, 'ebook')));
    const owned = async () => {
      const opened = await openOwnedFile(t.app.deps, purchase, 'ebook');
      if (!opened.ok) throw new Error(`no file: ${opened.reason}`);
      return opened.file;
    };
    const first = await owned();
    expect(first.key).toMatch(/^copies\//);
    const firstBytes = await streamBytes(first.read());
    const [mark] = await marksIn(firstBytes);

    const [original] = await t.database.db
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'ebook')));
    // The admin puts a new edition in place (the key changes, as every upload gets a new one).
    const key = `books/${bookId}/ebook/second-edition.epub`;
    await t.app.deps.files.put(key, makeTestEpub({ body: 'The second edition.' }), 'application/epub+zip');
    await t.database.db
      .update(digitalAssets)
      .set({ fileUrl: key, updatedAt: t.clock.now() })
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'ebook')));

    const second = await owned();
    expect(second.etag).not.toBe(first.etag);
    const secondBytes = await streamBytes(second.read());
    expect(text(unzipSync(secondBytes)['EPUB/c1.xhtml'])).toContain('The second edition.');
    expect(text(unzipSync(secondBytes)['EPUB/ex-libris.xhtml'])).toContain('This copy belongs to Early Buyer');
    expect(await marksIn(secondBytes)).toEqual([mark]);
    // Asked again, the stored copy is served as it is.
    expect((await owned()).etag).toBe(second.etag);
    // Put the seeded master back for the other tests.
    await t.database.db
      .update(digitalAssets)
      .set({ fileUrl: original.fileUrl })
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'ebook')));
  });
});

async function streamBytes(stream: Promise<NodeJS.ReadableStream>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
