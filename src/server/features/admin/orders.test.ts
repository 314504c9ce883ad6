import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, digitalAssets, mailOutbox, purchases } from '../../db/schema';
import { createTestApp, createUser, signedInAgent, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent, insertBook, insertPurchase } from './test-fixtures';

describe('admin orders API', () => {
  let t: TestApp;
  let agent: TestAgent;
  let adminId: number;
  let bookId: number;
  let reader: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    ({ agent, admin: { id: adminId } } = await adminAgent(t));
    bookId = (await insertBook(t, { featured: true, title: 'What We Owe the Dead' })).id;
    reader = await createUser(t.database, { username: 'ellie', email: 'ellie@example.com' });
    await t.app.deps.files.put('books/ebook.epub', Buffer.from('epub bytes'), 'application/epub+zip');
    await t.database.db.insert(digitalAssets).values({
      bookId,
      format: 'ebook',
      fileUrl: 'books/ebook.epub',
      fileName: 'ebook.epub',
      contentType: 'application/epub+zip',
      fileSizeKb: 1,
    });
  });
  afterAll(async () => t.close());

  it('lists orders with buyer, format, price, status and download use, filtered and searched', async () => {
    await insertPurchase(t, { userId: reader.id, bookId, format: 'hardcover', price: 2499, maxDownloads: 0, purchaseDate: new Date('2026-11-01T10:00:00Z') });
    await insertPurchase(t, { userId: reader.id, bookId, format: 'ebook', price: 999, downloadCount: 1, downloadUsed: true, purchaseDate: new Date('2026-11-02T10:00:00Z') });
    const page = (await agent.get('/api/admin/orders')).json();
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({
      format: 'ebook',
      price: 999,
      status: 'completed',
      downloadCount: 1,
      maxDownloads: 1,
      downloadUsed: true,
      buyer: { id: reader.id, username: 'ellie', email: 'ellie@example.com' },
      book: { id: bookId, title: 'What We Owe the Dead' },
    });
    expect((await agent.get('/api/admin/orders?format=hardcover')).json().total).toBe(1);
    expect((await agent.get('/api/admin/orders?q=ELLIE')).json().total).toBe(2);
    expect((await agent.get('/api/admin/orders?q=nobody%25')).json().total).toBe(0);
    expect((await agent.get('/api/admin/orders?status=bogus')).statusCode).toBe(400);
  });

  it('marks a physical order shipped once, tells the buyer, and never ships a download', async () => {
    const order = await insertPurchase(t, { userId: reader.id, bookId, format: 'paperback', price: 1699, maxDownloads: 0 });
    const res = await agent.post(`/api/admin/orders/${order.id}/ship`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: order.id, status: 'shipped', shippedAt: t.clock.now().toISOString() });
    const mail = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'order-shipped'));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: 'ellie@example.com', subject: 'Your paperback of What We Owe the Dead is on its way' });
    const twice = await agent.post(`/api/admin/orders/${order.id}/ship`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This order has already been shipped');
    const digital = await insertPurchase(t, { userId: reader.id, bookId, format: 'audiobook', price: 1499 });
    expect((await agent.post(`/api/admin/orders/${digital.id}/ship`)).statusCode).toBe(409);
    expect((await agent.post('/api/admin/orders/999999/ship')).statusCode).toBe(404);
  });

  it('resets a used download so the buyer can download once more, and audits it', async () => {
    const buyer = await createUser(t.database);
    const order = await insertPurchase(t, { userId: buyer.id, bookId, format: 'ebook', price: 999 });
    const [asset] = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.bookId, bookId));
    const reader = await signedInAgent(t.app, buyer.id);

    expect((await reader.get(`/api/digital-assets/${asset.id}/download`)).statusCode).toBe(200);
    const used = await reader.get(`/api/digital-assets/${asset.id}/download`);
    expect(used.statusCode).toBe(403);
    expect(used.json().code).toBe('DOWNLOAD_LIMIT');

    const res = await agent.post(`/api/admin/orders/${order.id}/reset-download`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ downloadCount: 0, downloadUsed: false, maxDownloads: 1 });

    expect((await reader.get(`/api/digital-assets/${asset.id}/download`)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, order.id));
    expect(row).toMatchObject({ downloadCount: 1, downloadUsed: true });
    expect((await reader.get(`/api/digital-assets/${asset.id}/download`)).statusCode).toBe(403);

    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'order.reset-download'));
    expect(entry).toMatchObject({ actorId: adminId, targetType: 'purchase', targetId: String(order.id), details: { buyerId: buyer.id, format: 'ebook', previousDownloadCount: 1 } });
  });

  it('has no allowance to reset on a physical or refunded order', async () => {
    const hardcover = await insertPurchase(t, { userId: reader.id, bookId, format: 'hardcover', price: 2499, maxDownloads: 0 });
    expect((await agent.post(`/api/admin/orders/${hardcover.id}/reset-download`)).statusCode).toBe(409);
    const refunded = await insertPurchase(t, { userId: reader.id, bookId, format: 'ebook', price: 999, status: 'refunded' });
    expect((await agent.post(`/api/admin/orders/${refunded.id}/reset-download`)).statusCode).toBe(409);
  });
});
