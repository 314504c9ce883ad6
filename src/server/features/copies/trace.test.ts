import { and, desc, eq } from 'drizzle-orm';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, digitalAssets, purchases } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent, insertPurchase } from '../admin/test-fixtures';
import { buy, featuredBookId } from '../checkout/test-support';
import { TRACE_NOT_FOUND_MESSAGE } from '@shared/schemas/copies';
import { MULTIPART_CONTENT_TYPE, makeTestEpub, multipartBody, postFile } from './test-support';

describe('Trace a Copy', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    admin = (await adminAgent(t)).agent;
  });
  afterAll(() => t.close());

  async function downloaded(format: 'ebook' | 'pdf') {
    const user = await createUser(t.database, { displayName: 'Leaky Reader' });
    const agent = await signedInAgent(t.app, user.id);
    if (format === 'pdf') await insertPurchase(t, { userId: user.id, bookId, format: 'pdf', price: 999 });
    else await buy(agent, bookId, 'ebook');
    const [purchase] = await t.database.db
      .select()
      .from(purchases)
      .where(and(eq(purchases.userId, user.id), eq(purchases.format, format)));
    const [asset] = await t.database.db
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, bookId), eq(digitalAssets.format, format)));
    const link = await agent.get(`/api/digital-assets/${asset.id}/download`, { auth: 'bearer' });
    const file = await t.app.inject({ method: 'GET', url: link.json().downloadUrl });
    expect(file.statusCode).toBe(200);
    return { user, purchase, bytes: file.rawPayload };
  }

  it('traces a copy with its ex-libris page removed and the archive re-zipped', async () => {
    const { user, purchase, bytes } = await downloaded('ebook');
    // What a pirate might do: drop the ex-libris page (file, manifest item, spine entry) and zip it again
    // with other settings.
    const entries = unzipSync(bytes);
    delete entries['OEBPS/ex-libris.xhtml'];
    const opf = Buffer.from(entries['OEBPS/content.opf'])
      .toString('utf8')
      .replace(/\s*<item id="ex-libris"[^>]*>/, '')
      .replace(/\s*<itemref idref="ex-libris"\/>/, '');
    entries['OEBPS/content.opf'] = new TextEncoder().encode(opf);
    const rezipped: Zippable = {};
    for (const [name, data] of Object.entries(entries).reverse()) rezipped[name] = [data, { level: 9 }];
    const stripped = Buffer.from(zipSync(rezipped, { mtime: new Date('2030-05-05T00:00:00Z') }));
    expect(stripped.toString('latin1')).not.toContain('This copy belongs to');

    const res = await postFile(admin, '/api/admin/trace', 'shared-on-a-forum.epub', stripped);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      purchaseId: purchase.id,
      userId: user.id,
      username: user.username,
      name: 'Leaky Reader',
      email: user.email,
      orderReference: purchase.orderReference,
      format: 'ebook',
      purchasedAt: purchase.purchaseDate.toISOString(),
    });
    const [entry] = await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ action: 'copy.trace', targetType: 'purchase', targetId: String(purchase.id) });
    expect(entry.details).toMatchObject({ fileName: 'shared-on-a-forum.epub', found: true, username: user.username });
  });

  it('traces a personal PDF', async () => {
    const { user, purchase, bytes } = await downloaded('pdf');
    const res = await postFile(admin, '/api/admin/trace', 'leak.pdf', bytes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ purchaseId: purchase.id, userId: user.id, format: 'pdf' });
  });

  it('a foreign EPUB, or the master itself, is 404 with a clear message (and audited)', async () => {
    const foreign = await postFile(admin, '/api/admin/trace', 'someone-else.epub', makeTestEpub());
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'No copy made by this site was found in this file: it carries no purchase mark we know.',
    });
    const [entry] = await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ action: 'copy.trace', targetId: null });
    expect(entry.details).toMatchObject({ fileName: 'someone-else.epub', found: false });

    // A well-formed mark that no purchase carries is unknown too.
    const forged = makeTestEpub({ body: '<span class="wwdc0123456789abcdef0123">x</span>' });
    expect((await postFile(admin, '/api/admin/trace', 'forged.epub', forged)).statusCode).toBe(404);
    const empty = await postFile(admin, '/api/admin/trace', 'empty.epub', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
  });

  const lastAudit = async () => (await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];

  it('a malformed upload is a 400 that says what is wrong, and traces nothing', async () => {
    const epub = makeTestEpub();
    const unreadable = { message: 'The upload could not be read. Please try again.', code: 'BAD_REQUEST' };
    const inField = 'Send the file in the form field "file".';
    const cases: Array<[string, Buffer | string, string, Record<string, unknown>]> = [
      ['a body cut before its closing boundary', multipartBody([{ field: 'file', fileName: 'a.epub', data: epub }], { close: false }), MULTIPART_CONTENT_TYPE, unreadable],
      ['a part header cut short', '------copiesTestBoundary\r\nContent-Disposition: form-da', MULTIPART_CONTENT_TYPE, unreadable],
      ['a body that is not multipart at all', 'garbage', MULTIPART_CONTENT_TYPE, unreadable],
      ['a multipart type without a boundary', 'x', 'multipart/form-data', unreadable],
      ['only a plain field', multipartBody([{ field: 'note', data: 'hello' }]), MULTIPART_CONTENT_TYPE, { message: 'Choose a file to trace', code: 'BAD_REQUEST', fields: { file: 'Choose a file to trace' } }],
      ['the file in another field', multipartBody([{ field: 'upload', fileName: 'a.epub', data: epub }]), MULTIPART_CONTENT_TYPE, { message: inField, code: 'BAD_REQUEST', fields: { file: inField } }],
      ['two files', multipartBody([{ field: 'file', fileName: 'a.epub', data: epub }, { field: 'file', fileName: 'b.epub', data: epub }]), MULTIPART_CONTENT_TYPE, { message: 'Send one file at a time.', code: 'BAD_REQUEST', fields: { file: 'Send one file at a time.' } }],
      ['more parts than the limit', multipartBody([{ field: 'a', data: '1' }, { field: 'b', data: '2' }, { field: 'c', data: '3' }, { field: 'file', fileName: 'a.epub', data: epub }]), MULTIPART_CONTENT_TYPE, { message: 'The upload has more parts than the file: send the file alone.', code: 'BAD_REQUEST' }],
      ['an empty file', multipartBody([{ field: 'file', fileName: 'a.epub', data: '' }]), MULTIPART_CONTENT_TYPE, { message: 'The file is empty', code: 'BAD_REQUEST', fields: { file: 'The file is empty' } }],
    ];
    const before = await lastAudit();
    for (const [label, payload, contentType, answer] of cases) {
      const res = await admin.request({ method: 'POST', url: '/api/admin/trace', payload, headers: { 'content-type': contentType } });
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toEqual(answer);
    }
    expect((await lastAudit()).id).toBe(before.id);
  });

  it('a file that is no archive, or a cut one, is searched byte by byte and audited as not found', async () => {
    for (const [name, data] of [['notes.txt', Buffer.from('just some words')], ['cut.epub', makeTestEpub().subarray(0, 300)]] as const) {
      const res = await postFile(admin, '/api/admin/trace', name, data);
      expect(res.statusCode, name).toBe(404);
      expect(res.json().message).toBe(TRACE_NOT_FOUND_MESSAGE);
      expect((await lastAudit()).details).toEqual({ fileName: name, bytes: data.length, found: false });
    }
  });

  it('a file name with NUL, control characters, broken Unicode or a cut emoji is audited cleaned', async () => {
    const epub = makeTestEpub();
    const names: Array<[string | Buffer, string]> = [
      ['leak\u0000ed.epub', 'leaked.epub'],
      ['tab\there\u0001\u001f\u007f\ufffe\uffff.epub', 'tabhere.epub'],
      // A surrogate written as UTF-8 bytes is no UTF-8: the parser reads it as replacement characters.
      [Buffer.concat([Buffer.from('half'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('.epub')]), 'half\ufffd\ufffd\ufffd.epub'],
      // 199 letters and an emoji: the first 200 characters end with the whole emoji, never half of it.
      [`${'a'.repeat(199)}😀😀.epub`, `${'a'.repeat(199)}😀`],
      ['x'.repeat(5000), 'x'.repeat(200)],
    ];
    for (const [name, cleaned] of names) {
      const res = await postFile(admin, '/api/admin/trace', name, epub);
      expect(res.statusCode, cleaned).toBe(404);
      expect((await lastAudit()).details, cleaned).toEqual({ fileName: cleaned, bytes: epub.length, found: false });
    }
  });

  it('is for the admin only: 401 signed out, 403 for a reader', async () => {
    const epub = makeTestEpub();
    expect((await postFile(new TestAgent(t.app), '/api/admin/trace', 'x.epub', epub)).statusCode).toBe(401);
    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await postFile(reader, '/api/admin/trace', 'x.epub', epub)).statusCode).toBe(403);
  });
});
