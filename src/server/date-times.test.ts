/**
 * Every date-time a client sends (a reading position's moment, a discount's expiry, a pre-order's release,
 * a gift's delivery) follows one rule: an ISO 8601 instant in the years 1900-9999. Outside it the answer
 * is a 400 naming the field and nothing is stored; at its edges the value is stored and read back exactly
 * as sent, on PGlite and on PostgreSQL alike.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_TIME_RANGE_MESSAGE } from '@shared/schemas/common';
import { books, checkoutSessions, discountCodes } from './db/schema';
import { type TestApp, type TestAgent, createTestApp } from './test/helpers';
import { adminAgent } from './features/admin/test-fixtures';
import { featuredBookId, newBuyer } from './features/checkout/test-support';

/** Instants outside the years 1900-9999: year 0000 (no such year in PostgreSQL), the years the drivers shifted, and past 9999. */
const OUT_OF_RANGE = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0099-12-31T23:59:59Z',
  '1899-12-31T23:59:59.999Z',
  // 1900 local, but 1899 in UTC.
  '1900-01-01T00:30:00+01:00',
  // 9999 local, but 10000 in UTC.
  '9999-12-31T23:30:00-01:00',
];

describe('date-times sent by clients', () => {
  let t: TestApp;
  let bookId: number;
  let upcomingId: number;
  let admin: TestAgent;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    const [upcoming] = await t.database.db.select({ id: books.id }).from(books).where(eq(books.featured, false)).orderBy(books.id).limit(1);
    upcomingId = upcoming.id;
    ({ agent: admin } = await adminAgent(t));
  });
  afterAll(() => t.close());

  it('a reading position from before 1900 or after 9999 is a 400; 1900 is stored as sent', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = `/api/library/${bookId}/ebook/position`;
    for (const updatedAt of OUT_OF_RANGE) {
      const res = await reader.agent.put(url, { locator: 'epubcfi(/6/4!/4/2/1:0)', progress: 0.2, updatedAt });
      expect(res.statusCode, updatedAt).toBe(400);
      expect(res.json(), updatedAt).toEqual({ message: DATE_TIME_RANGE_MESSAGE, code: 'VALIDATION_ERROR', fields: { updatedAt: DATE_TIME_RANGE_MESSAGE } });
    }
    expect((await reader.agent.get(url)).json()).toEqual({ position: null });

    const earliest = { locator: 'epubcfi(/6/4!/4/2/1:0)', progress: 0.2, updatedAt: '1900-01-01T00:00:00.000Z' };
    const saved = await reader.agent.put(url, earliest);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await reader.agent.get(url)).json()).toEqual({ position: earliest });
  });

  it('a discount expiry outside the years is a 400 and creates nothing; 9999 is kept to the millisecond', async () => {
    for (const [index, expiresAt] of OUT_OF_RANGE.entries()) {
      const res = await admin.post('/api/admin/discounts', { code: `ANCIENT${index}`, percentOff: 10, expiresAt });
      expect(res.statusCode, expiresAt).toBe(400);
      expect(res.json().fields, expiresAt).toEqual({ expiresAt: DATE_TIME_RANGE_MESSAGE });
    }
    expect((await t.database.db.select().from(discountCodes)).filter((d) => d.code.startsWith('ANCIENT'))).toEqual([]);

    const created = await admin.post('/api/admin/discounts', { code: 'LASTDAY', percentOff: 10, expiresAt: '9999-12-31T23:59:59.999Z' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().expiresAt).toBe('9999-12-31T23:59:59.999Z');
    const edit = await admin.put(`/api/admin/discounts/${created.json().id}`, { code: 'LASTDAY', percentOff: 10, expiresAt: '0001-06-01T00:00:00Z' });
    expect(edit.statusCode).toBe(400);
    const [listed] = ((await admin.get('/api/admin/discounts')).json().items as Array<{ code: string; expiresAt: string }>).filter((d) => d.code === 'LASTDAY');
    expect(listed.expiresAt).toBe('9999-12-31T23:59:59.999Z');
  });

  it('a release date outside the years is a 400 and leaves the book as it was', async () => {
    const url = `/api/admin/books/${upcomingId}/pre-order`;
    const before = (await admin.get(url)).json();
    const prices = { hardcover: 2599, paperback: null, ebook: 1299, audiobook: null };
    for (const releaseAt of OUT_OF_RANGE) {
      const res = await admin.put(url, { releaseAt, prices });
      expect(res.statusCode, releaseAt).toBe(400);
      expect(res.json().fields, releaseAt).toEqual({ releaseAt: DATE_TIME_RANGE_MESSAGE });
    }
    expect((await admin.get(url)).json()).toEqual(before);
    const saved = await admin.put(url, { releaseAt: '2031-01-01T00:00:00.000Z', prices });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().releaseAt).toBe('2031-01-01T00:00:00.000Z');
  });

  it('a gift delivery outside the years is a 400 and starts no checkout', async () => {
    const buyer = await newBuyer(t, bookId, []);
    for (const sendAt of OUT_OF_RANGE) {
      const res = await buyer.agent.post('/api/checkout', { bookId, format: 'ebook', gift: { recipientName: 'Ada', recipientEmail: 'ada@example.com', sendAt } });
      expect(res.statusCode, sendAt).toBe(400);
      expect(res.json().fields, sendAt).toEqual({ 'gift.sendAt': DATE_TIME_RANGE_MESSAGE });
    }
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, buyer.user.id))).toEqual([]);
  });
});
