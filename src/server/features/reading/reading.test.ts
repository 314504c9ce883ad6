import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetChapters, digitalAssets } from '../../db/schema';
import { seedFilesDir } from '../../platform/operations/seed';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, newBuyer, purchaseOf as purchaseRow } from '../checkout/test-support';
import { marksIn } from '../copies/trace';
import { readZip } from '../../platform/storage/zip';

describe('reading room API', () => {
  let t: TestApp;
  let bookId: number;
  const epub = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub'));
  const mp3 = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-audio-sample.mp3'));

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  const buyer = (formats: string[] = ['ebook']) => newBuyer(t, bookId, formats);
  const purchaseOf = (userId: number, format = 'ebook') => purchaseRow(t, userId, format);
  const content = (format = 'ebook') => `/api/library/${bookId}/${format}/content`;
  const position = (format = 'ebook') => `/api/library/${bookId}/${format}/position`;

  it('streams the owner\'s copy, whole and in ranges, private and uncached, spending nothing', async () => {
    const admin = await createUser(t.database, { role: 'admin' });
    const adminAgent = await signedInAgent(t.app, admin.id);
    const downloadsBefore = (await adminAgent.get('/api/dashboard/stats')).json().engagementStats.totalDownloads;
    const a = await buyer(['ebook']);

    const whole = await a.agent.get(content(), { auth: 'bearer' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('application/epub+zip');
    expect(whole.headers['cache-control']).toBe('private, no-store');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toBe('inline');
    // The owner's copy is their personal EPUB (issue 14), the same bytes the download gives (checked below).
    const copy = whole.rawPayload;
    expect(copy.equals(epub)).toBe(false);
    expect(await marksIn(copy)).toHaveLength(1);

    const part = await a.agent.get(content(), { auth: 'cookie', headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${copy.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.equals(copy.subarray(100, 200))).toBe(true);
    const tail = await a.agent.get(content(), { headers: { range: 'bytes=-16' } });
    expect(tail.rawPayload.equals(copy.subarray(copy.length - 16))).toBe(true);
    const beyond = await a.agent.get(content(), { headers: { range: `bytes=${copy.length}-` } });
    expect(beyond.statusCode).toBe(416);

    // Reading is not a download: the allowance, the library and the dashboard are as before.
    expect(await purchaseOf(a.user.id)).toMatchObject({ downloadCount: 0, downloadUsed: false, lastDownloaded: null });
    const [item] = (await a.agent.get('/api/library/books')).json();
    expect(item).toMatchObject({ format: 'ebook', downloadCount: 0, downloadUsed: false });
    expect((await adminAgent.get('/api/dashboard/stats')).json().engagementStats.totalDownloads).toBe(downloadsBefore);

    // ...and the one download still works afterwards, with the same bytes.
    const assets = (await a.agent.get(`/api/books/${bookId}/assets?format=ebook`)).json();
    const link = await a.agent.get(`/api/digital-assets/${assets.asset.id}/download`, { auth: 'bearer' });
    expect(link.statusCode).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: link.json().downloadUrl });
    expect(file.rawPayload.equals(whole.rawPayload)).toBe(true);
  });

  it('streams the audiobook in ranges, as a player seeking asks for it', async () => {
    const a = await buyer(['audiobook']);
    const res = await a.agent.get(content('audiobook'), { auth: 'cookie', headers: { range: 'bytes=0-' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['content-range']).toBe(`bytes 0-${mp3.length - 1}/${mp3.length}`);
    expect(res.rawPayload.equals(mp3)).toBe(true);
  });

  it('refuses anonymous callers (401) and readers who do not own the format (403), with no bytes', async () => {
    const owner = await buyer(['ebook']);
    const stranger = await buyer(['audiobook']);
    const anonymous = new TestAgent(t.app);
    for (const url of [content(), position()]) {
      const res = await anonymous.get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: expect.any(String) });
    }
    expect((await anonymous.put(position(), { locator: '1', progress: 0.1, updatedAt: new Date().toISOString() })).statusCode).toBe(401);
    const refused = await stranger.agent.get(content());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'You have not purchased this format', code: 'FORBIDDEN' });
    expect(refused.rawPayload.includes(epub.subarray(0, 30))).toBe(false);
    expect((await stranger.agent.get(position())).statusCode).toBe(403);
    const write = await stranger.agent.put(position(), { locator: '1', progress: 0.5, updatedAt: new Date().toISOString() });
    expect(write.statusCode).toBe(403);
    expect((await owner.agent.get(position())).json()).toEqual({ position: null });
    expect((await stranger.agent.get(`/api/library/${bookId}/audiobook/chapters`)).statusCode).toBe(200);
    expect((await owner.agent.get(`/api/library/${bookId}/audiobook/chapters`)).statusCode).toBe(403);
    expect((await owner.agent.get(`/api/library/999999/ebook/content`)).statusCode).toBe(403);
    expect((await owner.agent.get(`/api/library/${bookId}/paperback/content`)).statusCode).toBe(400);
    expect((await owner.agent.get(`/api/library/abc/ebook/content`)).statusCode).toBe(400);
  });

  it('saves positions, answers them on another device, and refuses a stale write with 409', async () => {
    const a = await buyer(['ebook']);
    const otherDevice = await signedInAgent(t.app, a.user.id);
    const first = { locator: 'epubcfi(/6/4!/4/2/1:0)', progress: 0.37, updatedAt: '2026-11-21T11:00:00.000Z' };
    const saved = await a.agent.put(position(), first);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ position: first });
    expect((await otherDevice.get(position())).json()).toEqual({ position: first });

    const older = { locator: 'epubcfi(/6/2!/4/2/1:0)', progress: 0.05, updatedAt: '2026-11-21T10:59:00.000Z' };
    const stale = await otherDevice.put(position(), older);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      message: 'A newer position was saved from another device.',
      code: 'STALE_POSITION',
      position: first,
    });
    expect((await a.agent.get(position())).json().position).toEqual(first);

    const newer = { locator: 'epubcfi(/6/4!/4/20/1:0)', progress: 0.5, updatedAt: '2026-11-21T11:05:00.000Z' };
    expect((await otherDevice.put(position(), newer)).json()).toEqual({ position: newer });
    const progress = (await a.agent.get('/api/reading/progress')).json();
    expect(progress).toEqual([{ bookId, format: 'ebook', ...newer }]);
  });

  it('takes a device clock running ahead as "now", so it cannot lock other devices out', async () => {
    const a = await buyer(['audiobook']);
    const future = await a.agent.put(position('audiobook'), { locator: '12.5', progress: 0.4, updatedAt: '2030-01-01T00:00:00.000Z' });
    expect(future.statusCode).toBe(200);
    expect(future.json().position.updatedAt).toBe('2026-11-21T12:01:00.000Z');
    const later = await a.agent.put(position('audiobook'), { locator: '14', progress: 0.5, updatedAt: '2026-11-21T12:02:00.000Z' });
    expect(later.statusCode).toBe(200);
  });

  it('rejects bad positions with field errors and changes nothing', async () => {
    const a = await buyer(['ebook']);
    const cases = [
      { locator: '', progress: 0.1, updatedAt: '2026-11-21T11:00:00Z' },
      { locator: 'x', progress: 1.5, updatedAt: '2026-11-21T11:00:00Z' },
      { locator: 'x', progress: 0.1, updatedAt: 'yesterday' },
      { locator: 'x'.repeat(1001), progress: 0.1, updatedAt: '2026-11-21T11:00:00Z' },
      { locator: 'x', updatedAt: '2026-11-21T11:00:00Z' },
    ];
    for (const body of cases) {
      const res = await a.agent.put(position(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toBeTruthy();
    }
    expect((await a.agent.get(position())).json()).toEqual({ position: null });
  });

  it('a position write needs the CSRF token like every other change', async () => {
    const a = await buyer(['ebook']);
    const res = await a.agent.put(position(), { locator: '1', progress: 0.1, updatedAt: '2026-11-21T11:00:00Z' }, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CSRF_ERROR');
  });

  it("answers the audiobook's chapters from the file's own ID3 chapter frames", async () => {
    const a = await buyer(['audiobook']);
    const res = await a.agent.get(`/api/library/${bookId}/audiobook/chapters`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    expect(body.chapters).toEqual([
      { title: 'Opening credits', start: 0, end: 6 },
      { title: 'Chapter One: The Return', start: 6, end: 27.324 },
    ]);
    expect(body.duration).toBeCloseTo(27.32, 1);
    // Asked again, the kept marks answer the same.
    expect((await a.agent.get(`/api/library/${bookId}/audiobook/chapters`)).json()).toEqual(body);
  });

  it('reads the chapter marks of an audiobook when the admin uploads it', async () => {
    const { agent } = await adminAgent(t);
    const boundary = 'x-reading-test';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="book.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`),
      mp3,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await agent.request({
      method: 'PUT',
      url: `/api/admin/books/${bookId}/files/audiobook`,
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [asset] = await t.database.db
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, 'audiobook')));
    const [row] = await t.database.db.select().from(assetChapters).where(eq(assetChapters.assetId, asset.id));
    expect(row.chapters.map((c) => c.title)).toEqual(['Opening credits', 'Chapter One: The Return']);
    expect(row.fileTag).toContain(asset.fileUrl);
  });

  it('serves the app with 200 on the reading room routes and 404 on paths that are not one', async () => {
    for (const url of ['/read/sample', `/read/${bookId}/ebook`, `/read/${bookId}/pdf`, `/listen/${bookId}`]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
    for (const url of [`/read/${bookId}/paperback`, '/read/x/ebook', '/listen/abc']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('serves a sample EPUB to anyone: the first chapter and a last page inviting the reader to buy', async () => {
    const res = await new TestAgent(t.app).get('/api/reading/sample');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/epub+zip');
    const entries = new Map((await readZip(res.rawPayload)).map((e) => [e.name, e.data.toString('utf8')]));
    expect([...entries.keys()][0]).toBe('mimetype');
    expect(entries.get('mimetype')).toBe('application/epub+zip');
    expect(entries.get('OEBPS/chapter-01.xhtml')).toContain('The Return');
    const end = entries.get('OEBPS/sample-end.xhtml')!;
    expect(end).toContain('Buy to keep reading');
    expect(end).toContain('href="http://localhost:3000/#purchase"');
    const opf = entries.get('OEBPS/content.opf')!;
    expect(opf).toMatch(/<itemref idref="chapter-01"\/>\s*<itemref idref="sample-end"\/>\s*<\/spine>/);
    expect(opf).toContain('properties="nav"');
    expect(entries.get('OEBPS/sample-nav.xhtml')).toContain('<a href="chapter-01.xhtml">Chapter One: The Return</a>');
  });
});
