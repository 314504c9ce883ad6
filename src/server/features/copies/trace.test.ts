import { and, desc, eq } from 'drizzle-orm';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, digitalAssets, purchases } from '../../db/schema';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent, insertPurchase } from '../admin/test-fixtures';
import { buy, featuredBookId } from '../checkout/test-support';
import { makeTestEpub, postFile } from './test-support';

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

  it('is for the admin only: 401 signed out, 403 for a reader', async () => {
    const epub = makeTestEpub();
    expect((await postFile(new TestAgent(t.app), '/api/admin/trace', 'x.epub', epub)).statusCode).toBe(401);
    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await postFile(reader, '/api/admin/trace', 'x.epub', epub)).statusCode).toBe(403);
  });
});
