import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { books, mailOutbox, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { assetIdOf, buy, featuredBookId } from './test-support';

describe('the ebook with print, and refunds (local payments)', () => {
  let t: TestApp;
  let bookId: number;
  let ebookAssetId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    ebookAssetId = await assetIdOf(t, bookId, 'ebook');
    admin = await adminAgent(t);
  });
  afterAll(() => t.close());

  const newBuyer = async () => {
    const user = await createUser(t.database);
    return { user, agent: await signedInAgent(t.app, user.id) };
  };
  const rowsOf = (userId: number) =>
    t.database.db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(purchases.id);
  type Buyer = Awaited<ReturnType<typeof newBuyer>>;
  const library = async (b: Buyer) =>
    (await b.agent.get('/api/library/books')).json() as Array<{ id: number; format: string; includedWith: string | null }>;
  const stats = async () => (await admin.agent.get('/api/dashboard/stats')).json().salesStats as { totalSales: number; totalRevenue: number };

  it('a paid hardcover puts the ebook in the library, marked as included, with one download', async () => {
    const b = await newBuyer();
    await buy(b.agent, bookId, 'hardcover');
    const [print, ebook, pdf] = await rowsOf(b.user.id);
    expect(print).toMatchObject({ format: 'hardcover', kind: 'paid', price: 2499 });
    expect(ebook).toMatchObject({ format: 'ebook', kind: 'included', price: 0, paidByPurchaseId: print.id, maxDownloads: 1, status: 'completed' });
    // The e-book brings its PDF edition, paid for by the same print order (decision 0066).
    expect(pdf).toMatchObject({ format: 'pdf', kind: 'included', price: 0, paidByPurchaseId: print.id, maxDownloads: 1, status: 'completed' });
    expect(await library(b)).toEqual([
      expect.objectContaining({ id: ebook.id, format: 'ebook', includedWith: 'hardcover' }),
      expect.objectContaining({ id: pdf.id, format: 'pdf', includedWith: 'ebook' }),
    ]);

    const first = await b.agent.get(`/api/digital-assets/${ebookAssetId}/download`);
    expect(first.statusCode, first.body).toBe(200);
    const second = await b.agent.get(`/api/digital-assets/${ebookAssetId}/download`);
    expect(second.statusCode).toBe(403);
    expect(second.json().message).toContain('Download limit');
  });

  it('a buyer who already owns the ebook gets no second copy; a paperback says so too', async () => {
    const b = await newBuyer();
    await buy(b.agent, bookId, 'ebook');
    await buy(b.agent, bookId, 'paperback');
    const rows = await rowsOf(b.user.id);
    expect(rows.map((r) => [r.format, r.kind])).toEqual([['ebook', 'paid'], ['pdf', 'included'], ['paperback', 'paid']]);
    const c = await newBuyer();
    await buy(c.agent, bookId, 'paperback');
    expect((await library(c)).map((i) => i.includedWith)).toEqual(['paperback', 'ebook']);
  });

  it('the purchase section says "Includes the ebook" on print formats, and the book setting turns it off', async () => {
    const formats = (await t.app.inject({ url: '/api/store/formats' })).json().formats as Array<{ id: string; includesEbook?: boolean }>;
    expect(Object.fromEntries(formats.map((f) => [f.id, f.includesEbook ?? null]))).toEqual({
      hardcover: true,
      paperback: true,
      ebook: null,
      audiobook: null,
    });
    await t.database.db.update(books).set({ includeEbookWithPrint: false }).where(eq(books.id, bookId));
    try {
      const off = (await t.app.inject({ url: '/api/store/formats' })).json().formats as Array<{ id: string; includesEbook?: boolean }>;
      expect(off.find((f) => f.id === 'hardcover')?.includesEbook).toBe(false);
      const b = await newBuyer();
      await buy(b.agent, bookId, 'hardcover');
      expect((await rowsOf(b.user.id)).map((r) => r.format)).toEqual(['hardcover']);
      expect(await library(b)).toEqual([]);
    } finally {
      await t.database.db.update(books).set({ includeEbookWithPrint: true }).where(eq(books.id, bookId));
    }
  });

  it('a refund removes access at once, mails the reader, leaves revenue, records who and when; twice is 409', async () => {
    const b = await newBuyer();
    await buy(b.agent, bookId, 'ebook');
    const [row] = await rowsOf(b.user.id);
    // A link issued before the refund must stop working.
    const link = (await b.agent.get(`/api/digital-assets/${ebookAssetId}/download`)).json().downloadUrl as string;
    const before = await stats();

    const res = await admin.agent.post(`/api/admin/orders/${row.id}/refund`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'refunded', refundedBy: admin.admin.username, refundedAt: t.clock.now().toISOString() });

    expect(await library(b)).toEqual([]);
    expect((await t.app.inject({ url: link })).statusCode).toBe(403);
    expect((await b.agent.get(`/api/books/${bookId}/assets?format=ebook`)).statusCode).toBe(403);
    const after = await stats();
    expect(before.totalSales - after.totalSales).toBe(1);
    expect(before.totalRevenue - after.totalRevenue).toBe(999);
    const mails = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, b.user.email), eq(mailOutbox.kind, 'refund')));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Your order ${row.orderReference} has been refunded`);
    expect(mails[0].text).toContain('£9.99');

    const again = await admin.agent.post(`/api/admin/orders/${row.id}/refund`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order has already been refunded');
    expect((await admin.agent.post('/api/admin/orders/999999/refund')).statusCode).toBe(404);
    expect((await b.agent.post(`/api/admin/orders/${row.id}/refund`)).statusCode).toBe(403);
  });

  it('refunding a print order takes its included ebook along; the ebook alone cannot be refunded', async () => {
    const b = await newBuyer();
    await buy(b.agent, bookId, 'hardcover');
    const [print, ebook, pdf] = await rowsOf(b.user.id);
    const alone = await admin.agent.post(`/api/admin/orders/${ebook.id}/refund`);
    expect(alone.statusCode).toBe(409);
    expect(alone.json().message).toBe('This item came with another order: refund that order instead');

    expect((await admin.agent.post(`/api/admin/orders/${print.id}/refund`)).statusCode).toBe(200);
    const rows = await rowsOf(b.user.id);
    expect(rows.map((r) => [r.format, r.status, r.refundedBy])).toEqual([
      ['hardcover', 'refunded', admin.admin.id],
      ['ebook', 'refunded', admin.admin.id],
      ['pdf', 'refunded', admin.admin.id],
    ]);
    expect((await admin.agent.post(`/api/admin/orders/${pdf.id}/refund`)).statusCode).toBe(409);
    expect(await library(b)).toEqual([]);
    expect((await b.agent.get(`/api/digital-assets/${ebookAssetId}/download`)).statusCode).toBe(403);
    const orders = (await b.agent.get('/api/library/orders')).json();
    // One order (the included e-book is not an order of its own), refunded, with the day it was.
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ format: 'hardcover', status: 'refunded', refundedAt: expect.any(String), displayListPrice: null });
  });
});
