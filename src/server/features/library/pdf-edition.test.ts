/** The e-book includes the PDF edition (issue 25 point 3, decision 0066): from purchase to download. */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digitalAssets, mailOutbox, personalCopies, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { assetIdOf, buy, featuredBookId, newBuyer, purchaseOf } from '../checkout/test-support';
import { marksIn } from '../copies/trace';

describe('the PDF edition that comes with the e-book', () => {
  let t: TestApp;
  let bookId: number;
  let pdfAssetId: number;
  let ebookAssetId: number;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    pdfAssetId = await assetIdOf(t, bookId, 'pdf');
    ebookAssetId = await assetIdOf(t, bookId, 'ebook');
  });
  afterAll(() => t.close());

  type Item = { id: number; format: string; includedWith: string | null; downloadCount: number };
  const formats = async () => (await t.app.inject({ url: '/api/store/formats' })).json().formats as Array<{ id: string; includesPdf?: boolean }>;

  it('the e-book card says it includes the PDF edition; the PDF is not a format on sale', async () => {
    const cards = await formats();
    expect(Object.fromEntries(cards.map((f) => [f.id, f.includesPdf ?? null]))).toEqual({
      hardcover: null,
      paperback: null,
      ebook: true,
      audiobook: null,
    });
    const { agent } = await newBuyer(t, bookId, []);
    const pdf = await agent.post('/api/checkout', { bookId, format: 'pdf' });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().message).toBe('Invalid format specified');
  });

  it('buying the e-book puts the PDF in the library with its own one download and a "Licensed to" copy', async () => {
    const user = await createUser(t.database, { displayName: 'Nell Archer' });
    const signed = await signedInAgent(t.app, user.id);
    const paid = await buy(signed, bookId, 'ebook');

    const library = (await signed.get('/api/library/books')).json() as Item[];
    expect(library.map((i) => [i.format, i.includedWith])).toEqual([['ebook', null], ['pdf', 'ebook']]);

    // The receipt names what came with the order.
    const [receipt] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipt.text).toContain('Includes: the PDF edition, with its own download in your library');
    expect(receipt.html).toContain('<td>Includes</td>');

    // The PDF: asset, one link, the buyer's personal copy, then "Download limit".
    const asset = await signed.get(`/api/books/${bookId}/assets?format=pdf`);
    expect(asset.statusCode).toBe(200);
    expect(asset.json().asset).toMatchObject({ id: pdfAssetId, format: 'pdf' });
    const link = await signed.get(`/api/digital-assets/${pdfAssetId}/download`, { auth: 'bearer' });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject({ url: link.json().downloadUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const pdfRow = await purchaseOf(t, user.id, 'pdf');
    expect(pdfRow).toMatchObject({ orderReference: `${paid.orderReference}-PDF`, downloadCount: 1, downloadUsed: true });
    const [copy] = await t.database.db.select().from(personalCopies).where(eq(personalCopies.purchaseId, pdfRow.id));
    expect(await marksIn(file.rawPayload)).toContain(copy.fingerprint);
    const again = await signed.get(`/api/digital-assets/${pdfAssetId}/download`, { auth: 'bearer' });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toContain('Download limit');

    // The e-book's own download is untouched, and the PDF reads in the browser without spending anything.
    expect((await signed.get(`/api/digital-assets/${ebookAssetId}/download`, { auth: 'bearer' })).statusCode).toBe(200);
    const read = await signed.get(`/api/library/${bookId}/pdf/content`);
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(file.rawPayload)).toBe(true);
  });

  it('a print copy brings the e-book and its PDF; the audiobook brings none', async () => {
    const { user, agent } = await newBuyer(t, bookId, ['audiobook', 'paperback']);
    const rows = await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id)).orderBy(purchases.id);
    // The paperback brings the e-book, and the e-book its PDF; the audiobook nothing.
    expect(rows.map((r) => [r.format, r.kind])).toEqual([
      ['audiobook', 'paid'],
      ['paperback', 'paid'],
      ['ebook', 'included'],
      ['pdf', 'included'],
    ]);
    expect((await agent.post('/api/checkout', { bookId, format: 'ebook' })).json().message).toBe('Already in your library');
  });

  it('e-book owners from before the offer get their PDF from the migration, once', async () => {
    const user = await createUser(t.database);
    const [ebook] = await t.database.db
      .insert(purchases)
      .values({ userId: user.id, bookId, format: 'ebook', price: 999, orderReference: `LEGACY-${user.id}`, kind: 'paid' })
      .returning();
    const migration = fs.readFileSync(path.join(import.meta.dirname, '../../db/migrations/0013_pay_once.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((s) => s.includes('INSERT INTO "purchases"'))!;
    await t.database.db.execute(sql.raw(backfill));
    await t.database.db.execute(sql.raw(backfill));
    const rows = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, user.id), eq(purchases.format, 'pdf')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'included', price: 0, maxDownloads: 1, paidByPurchaseId: ebook.id, orderReference: `LEGACY-${user.id}-PDF` });
  });

  it('without a PDF file the card promises nothing and the library shows no PDF row', async () => {
    const { agent } = await newBuyer(t, bookId, ['ebook']);
    const [asset] = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.id, pdfAssetId));
    await t.database.db.delete(digitalAssets).where(eq(digitalAssets.id, pdfAssetId));
    try {
      expect((await formats()).find((f) => f.id === 'ebook')?.includesPdf).toBeUndefined();
      const library = (await agent.get('/api/library/books')).json() as Item[];
      expect(library.map((i) => i.format)).toEqual(['ebook']);
    } finally {
      await t.database.db.insert(digitalAssets).values(asset);
    }
    // Once the author uploads it, the reader's PDF is there.
    expect(((await agent.get('/api/library/books')).json() as Item[]).map((i) => i.format)).toEqual(['ebook', 'pdf']);
  });
});
