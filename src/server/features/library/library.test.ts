import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { availableOnMessage } from '@shared/schemas/pre-orders';
import { books, downloadTransfers, purchases } from '../../db/schema';
import { seedFilesDir } from '../../platform/operations/seed';
import { type TestApp, TestAgent, createTestApp } from '../../test/helpers';
import { assetIdOf, featuredBookId, newBuyer, purchaseOf as purchaseRow } from '../checkout/test-support';
import { marksIn } from '../copies/trace';
import { openOwnedFile } from './owned-file';
import { LINK_USED_MESSAGE } from './transfers';

describe('library and one-time downloads', () => {
  let t: TestApp;
  let bookId: number;
  let ebookAssetId: number;
  const epub = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead.epub'));

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    ebookAssetId = await assetIdOf(t, bookId, 'ebook');
  });
  afterAll(() => t.close());

  const buyer = (formats: string[] = ['ebook']) => newBuyer(t, bookId, formats);
  const purchaseOf = (userId: number, format = 'ebook') => purchaseRow(t, userId, format);
  const linkFor = (agent: TestAgent, assetId = ebookAssetId) =>
    agent.get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' });

  it("lists only the caller's digital purchases, as library items", async () => {
    const a = await buyer(['ebook', 'paperback']);
    const b = await buyer(['audiobook']);
    const res = await a.agent.get('/api/library/books');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const items = res.json();
    // The e-book and the PDF edition that comes with it (decision 0066); the paperback ships.
    expect(items.map((i: { format: string }) => i.format)).toEqual(['ebook', 'pdf']);
    expect(items[0]).toMatchObject({
      bookId,
      userId: a.user.id,
      format: 'ebook',
      downloadCount: 0,
      downloadUsed: false,
      book: { id: bookId, title: 'What We Owe the Dead' },
    });
    expect(items[0].book.coverImage).toBeTruthy();
    const bItems = (await b.agent.get('/api/library/books')).json();
    expect(bItems.map((i: { format: string }) => i.format)).toEqual(['audiobook']);
    expect((await new TestAgent(t.app).get('/api/library/books')).statusCode).toBe(401);
  });

  it('a link stops opening once its book\'s release is moved later or its purchase is refunded, and claims nothing', async () => {
    const a = await buyer(['ebook']);
    const url = (await linkFor(a.agent)).json().downloadUrl;
    const purchase = await purchaseOf(a.user.id);
    const open = (accept = 'application/json') => t.app.inject({ method: 'GET', url, headers: { accept } });

    const releaseAt = new Date(t.clock.now().getTime() + 2 * 86_400_000);
    const [{ releaseAt: before }] = await t.database.db.select({ releaseAt: books.releaseAt }).from(books).where(eq(books.id, bookId));
    await t.database.db.update(books).set({ releaseAt }).where(eq(books.id, bookId));
    const early = await open();
    await t.database.db.update(books).set({ releaseAt: before }).where(eq(books.id, bookId));
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ code: 'NOT_RELEASED', message: availableOnMessage(releaseAt) });

    await t.database.db.update(purchases).set({ status: 'refunded' }).where(eq(purchases.id, purchase.id));
    const refunded = await open();
    expect(refunded.statusCode).toBe(403);
    expect(refunded.json()).toEqual({ code: 'LINK_INVALID', message: 'This download link is no longer valid.' });
    // Someone following the link in a browser reads the same refusal on a page.
    const page = await open('text/html');
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<p>This download link is no longer valid.</p>');

    const [transfer] = await t.database.db.select().from(downloadTransfers).where(eq(downloadTransfers.purchaseId, purchase.id));
    expect(transfer.startedAt).toBeNull();
  });

  it('answers the asset only for a format the caller bought', async () => {
    const a = await buyer(['ebook']);
    const ok = await a.agent.get(`/api/books/${bookId}/assets?format=ebook&userId=${a.user.id}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, asset: { id: ebookAssetId, format: 'ebook', version: '1.0' } });
    expect(ok.json().asset).not.toHaveProperty('fileUrl');
    expect((await a.agent.get(`/api/books/${bookId}/assets?format=audiobook`)).statusCode).toBe(403);
    // A userId naming someone else is refused, not obeyed.
    expect((await a.agent.get(`/api/books/${bookId}/assets?format=ebook&userId=${a.user.id + 1000}`)).statusCode).toBe(403);
  });

  it('issues one link, then refuses with "Download limit"; the file streams with the right headers', async () => {
    const a = await buyer(['ebook']);
    const first = await linkFor(a.agent);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ success: true, fileName: 'What We Owe the Dead.epub' });
    expect(body.downloadUrl).toMatch(/^\/files\/download\/[\w-]+\.[\w-]+$/);
    const after = await purchaseOf(a.user.id);
    expect(after).toMatchObject({ downloadCount: 1, downloadUsed: true });
    expect(after.lastDownloaded).not.toBeNull();

    const second = await linkFor(a.agent);
    expect(second.statusCode).toBe(403);
    expect(second.json().message).toContain('Download limit');
    expect((await purchaseOf(a.user.id)).downloadCount).toBe(1);

    const file = await t.app.inject({ method: 'GET', url: body.downloadUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/epub+zip');
    expect(file.headers['content-length']).toBe(String(file.rawPayload.length));
    expect(file.headers['content-disposition']).toBe(`attachment; filename="What We Owe the Dead.epub"; filename*=UTF-8''What%20We%20Owe%20the%20Dead.epub`);
    expect(file.headers['cache-control']).toContain('no-store');
    expect(file.headers['accept-ranges']).toBe('bytes');
    // A file, not a page: nothing in it may run or be framed as a page of the site.
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    // The transfer was claimed now, for this version of the file.
    const [transfer] = await t.database.db.select().from(downloadTransfers).where(eq(downloadTransfers.purchaseId, (await purchaseOf(a.user.id)).id));
    expect(transfer).toMatchObject({ startedAt: t.clock.now(), lastRequestAt: t.clock.now(), etag: file.headers.etag, size: file.rawPayload.length, requests: 1 });
    // The buyer gets their own copy of the master (issue 14): same book, their mark in it.
    expect(file.rawPayload.equals(epub)).toBe(false);
    expect(await marksIn(file.rawPayload)).toHaveLength(1);
    expect(file.rawPayload.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  });

  /** The buyer's copy as the file store holds it: what one whole transfer of the link must add up to. */
  async function storedCopy(userId: number) {
    const purchase = await purchaseOf(userId);
    const opened = await openOwnedFile(t.app.deps, { ...purchase, userId }, 'ebook');
    if (!opened.ok) throw new Error(opened.reason);
    const chunks: Buffer[] = [];
    for await (const chunk of await opened.file.read()) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  const transferOf = async (downloadUrl: string) => {
    const rows = await t.database.db.select().from(downloadTransfers);
    const token = downloadUrl.split('/').pop()!;
    const linkId = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).l;
    return rows.find((r) => r.linkId === linkId)!;
  };

  it('Range requests resume the interrupted transfer without spending another download; once the last byte is sent the link is closed', async () => {
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json();
    const copy = await storedCopy(a.user.id);
    const head = await t.app.inject({ method: 'GET', url: downloadUrl, headers: { range: 'bytes=0-99' } });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-99/${copy.length}`);
    expect(head.headers['content-length']).toBe('100');
    const beyond = await t.app.inject({ method: 'GET', url: downloadUrl, headers: { range: `bytes=${copy.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${copy.length}`);
    // A whole-file request in the middle of the transfer would be a second download.
    const whole = await t.app.inject({ method: 'GET', url: downloadUrl });
    expect(whole.statusCode).toBe(410);
    const rest = await t.app.inject({
      method: 'GET',
      url: downloadUrl,
      headers: { range: 'bytes=100-', 'if-range': head.headers.etag as string },
    });
    expect(rest.statusCode).toBe(206);
    expect(Buffer.concat([head.rawPayload, rest.rawPayload]).equals(copy)).toBe(true);
    await vi.waitFor(async () => expect((await transferOf(downloadUrl)).completedAt).not.toBeNull());
    const again = await t.app.inject({ method: 'GET', url: downloadUrl, headers: { range: 'bytes=-10' } });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ code: 'LINK_USED', message: LINK_USED_MESSAGE });
    expect((await purchaseOf(a.user.id)).downloadCount).toBe(1);
  });

  it('a link serves one download: a second whole GET is refused (410) with a clear message, and no new link is given', async () => {
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json();
    const first = await t.app.inject({ method: 'GET', url: downloadUrl });
    expect(first.statusCode).toBe(200);
    const second = await t.app.inject({ method: 'GET', url: downloadUrl });
    expect(second.statusCode).toBe(410);
    expect(second.headers['cache-control']).toContain('no-store');
    expect(second.json()).toEqual({ code: 'LINK_USED', message: LINK_USED_MESSAGE });
    expect(second.rawPayload.subarray(0, 2).toString('latin1')).not.toBe('PK');
    const page = await t.app.inject({ method: 'GET', url: downloadUrl, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('already been used');
    // The same, with the buyer's session on the request: the session does not make the link reusable.
    const withSession = await a.agent.get(downloadUrl, { auth: 'both' });
    expect(withSession.statusCode).toBe(410);
    // docs/PRODUCT.md, Downloads: one download per format; the allowance was spent once, by the link.
    const another = await linkFor(a.agent);
    expect(another.statusCode).toBe(403);
    expect(another.json().message).toContain('Download limit');
    expect((await purchaseOf(a.user.id)).downloadCount).toBe(1);
  });

  it('two whole GETs of one link at the same moment: one gets the file, the other 410', async () => {
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json();
    const answers = await Promise.all([1, 2].map(() => t.app.inject({ method: 'GET', url: downloadUrl })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 410]);
  });

  it('a HEAD does not use the link up', async () => {
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json();
    expect((await t.app.inject({ method: 'HEAD', url: downloadUrl })).statusCode).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: downloadUrl });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(await storedCopy(a.user.id))).toBe(true);
  });

  it('refuses expired (410) and tampered (403) links', async () => {
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json() as { downloadUrl: string };
    const token = downloadUrl.split('/').pop()!;
    const [payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    forged.a = forged.a + 1;
    const forgedPayload = Buffer.from(JSON.stringify(forged)).toString('base64url');
    const tampered = await t.app.inject({ method: 'GET', url: `/files/download/${forgedPayload}.${signature}` });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json().message).toMatch(/not valid/);
    expect(tampered.rawPayload.includes(epub.subarray(0, 30))).toBe(false);
    const garbage = await t.app.inject({ method: 'GET', url: '/files/download/not-a-token' });
    expect(garbage.statusCode).toBe(403);

    t.clock.advance(11 * 60 * 1000);
    const expired = await t.app.inject({ method: 'GET', url: downloadUrl });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toMatch(/expired/);
    const page = await t.app.inject({ method: 'GET', url: downloadUrl, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('expired');
  });

  it("another user's asset or download gets 403 and no bytes", async () => {
    const owner = await buyer(['ebook']);
    const stranger = await buyer(['audiobook']);
    const res = await linkFor(stranger.agent);
    expect(res.statusCode).toBe(403);
    expect(res.json()).not.toHaveProperty('downloadUrl');
    expect((await stranger.agent.get(`/api/digital-assets/${ebookAssetId}/download?userId=${owner.user.id}`)).statusCode).toBe(403);
    expect((await stranger.agent.get('/api/digital-assets/999999/download')).statusCode).toBe(404);
    expect((await purchaseOf(owner.user.id)).downloadCount).toBe(0);
    expect((await new TestAgent(t.app).get(`/api/digital-assets/${ebookAssetId}/download`)).statusCode).toBe(401);
  });

  it('HEAD and cookie-only requests do not consume; cookie + X-CSRF-Token does', async () => {
    const a = await buyer(['ebook']);
    const url = `/api/digital-assets/${ebookAssetId}/download`;
    const head = await a.agent.request({ method: 'HEAD', url, auth: 'both' });
    expect(head.statusCode).not.toBe(200);
    const cookieOnly = await a.agent.get(url, { auth: 'cookie' });
    expect(cookieOnly.statusCode).toBe(403);
    expect(cookieOnly.body).not.toContain('downloadUrl');
    const wrongToken = await a.agent.get(url, { auth: 'cookie', headers: { 'x-csrf-token': 'forged' } });
    expect(wrongToken.statusCode).toBe(403);
    expect((await purchaseOf(a.user.id)).downloadCount).toBe(0);

    const csrf = await a.agent.fetchCsrf();
    const withToken = await a.agent.get(url, { auth: 'cookie', headers: { 'x-csrf-token': csrf } });
    expect(withToken.statusCode, withToken.body).toBe(200);
    expect((await purchaseOf(a.user.id)).downloadCount).toBe(1);
  });

  it('a HEAD on the file link sends headers only', async () => {
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json();
    const head = await t.app.inject({ method: 'HEAD', url: downloadUrl });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(epub.length);
    expect(head.rawPayload.length).toBe(0);
  });
  it('over a real connection the file goes out whole, resumed by Range, and the link is then closed', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await buyer(['ebook']);
    const { downloadUrl } = (await linkFor(a.agent)).json();
    const copy = await storedCopy(a.user.id);
    const first = await fetch(`${address}${downloadUrl}`, { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    const rest = await fetch(`${address}${downloadUrl}`, { headers: { range: 'bytes=100-', 'if-range': first.headers.get('etag')! } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 100-${copy.length - 1}/${copy.length}`);
    expect(rest.headers.get('content-disposition')).toBe(`attachment; filename="What We Owe the Dead.epub"; filename*=UTF-8''What%20We%20Owe%20the%20Dead.epub`);
    const bytes = Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
    expect(bytes.equals(copy)).toBe(true);
    await vi.waitFor(async () => expect((await transferOf(downloadUrl)).completedAt).not.toBeNull());
    expect((await fetch(`${address}${downloadUrl}`, { headers: { range: 'bytes=0-9' } })).status).toBe(410);
  });
});
