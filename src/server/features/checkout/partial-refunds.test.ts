import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, orderLines, purchases, refunds } from '../../db/schema';
import { type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { buy, newReader, storeApp } from './test-support';
import { shareOut } from './refund-shares';

describe('partial refunds (decision 0082)', () => {
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>;
  beforeAll(async () => {
    ({ t, bookId } = await storeApp());
    admin = await adminAgent(t);
  });
  afterAll(() => t.close());

  const reader = () => newReader(t);
  const rowsOf = (userId: number) => t.database.db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(purchases.id);
  const revenue = async () => (await admin.agent.get('/api/dashboard/stats')).json().salesStats.totalRevenue as number;
  const libraryFormats = async (agent: TestAgent) =>
    ((await agent.get('/api/library/books')).json() as Array<{ format: string }>).map((b) => b.format).sort();
  const refund = (id: number, body?: Record<string, unknown>) => admin.agent.post(`/api/admin/orders/${id}/refund`, body);

  /** A paid basket order of an audiobook and an e-book, on the local payment page. */
  async function basketOrder() {
    const r = await reader();
    await r.agent.post('/api/basket/items', { bookId, format: 'audiobook' });
    await r.agent.post('/api/basket/items', { bookId, format: 'ebook' });
    const sessionId = ((await r.agent.post('/api/checkout/basket', {})).json().url as string).split('/').pop()!;
    expect((await r.agent.post(`/api/checkout/sessions/${sessionId}/pay`)).statusCode).toBe(200);
    const rows = await rowsOf(r.user.id);
    const audiobook = rows.find((p) => p.format === 'audiobook')!;
    const ebook = rows.find((p) => p.format === 'ebook')!;
    const lines = await t.database.db.select().from(orderLines);
    return {
      ...r,
      audiobook,
      ebook,
      audiobookLine: lines.find((l) => l.purchaseId === audiobook.id)!.id,
      ebookLine: lines.find((l) => l.purchaseId === ebook.id)!.id,
    };
  }

  it('refunds an amount of an order: revenue drops by it, the order stays in the library, the reader is told', async () => {
    const { user, agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const [ebook] = await rowsOf(user.id);
    const before = await revenue();

    const res = await refund(ebook.id, { amount: 300 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'completed', price: 999, refundedAmount: 300, refunds: [{ amount: 300, whole: false, by: admin.admin.username }] });
    expect(await revenue()).toBe(before - 300);
    expect(await libraryFormats(agent)).toEqual(['ebook', 'pdf']);
    const [mail] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'partial-refund')));
    expect(mail.subject).toBe(`Part of your order ${ebook.orderReference} has been refunded`);
    expect(mail.text).toContain(`£3.00 of your order ${ebook.orderReference}`);

    // More than is left is refused, and nothing changes.
    const tooMuch = await refund(ebook.id, { amount: 700 });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe('At most £6.99 of this order can still be refunded');
    expect(await revenue()).toBe(before - 300);

    // The rest, as an amount, is the whole refund: the e-book and its PDF edition leave the library.
    const rest = await refund(ebook.id, { amount: 699 });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ status: 'refunded', refundedAmount: 999 });
    expect(rest.json().refunds.map((r: { amount: number; whole: boolean }) => [r.amount, r.whole])).toEqual([[300, false], [699, true]]);
    expect(await revenue()).toBe(before - 999);
    expect(await libraryFormats(agent)).toEqual([]);
    const [whole] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'refund')));
    expect(whole.text).toContain('£6.99 is on its way back');
    expect((await refund(ebook.id)).json().message).toBe('This order has already been refunded');
  });

  it('a whole refund after a partial one gives back what is left', async () => {
    const { user, agent } = await reader();
    await buy(agent, bookId, 'audiobook');
    const [row] = await rowsOf(user.id);
    await refund(row.id, { amount: 499 });
    const res = await refund(row.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds.map((r: { amount: number }) => r.amount)).toEqual([499, row.price - 499]);
    const recorded = await t.database.db.select().from(refunds).where(eq(refunds.purchaseId, row.id));
    expect(recorded.reduce((s, r) => s + r.amount, 0)).toBe(row.price);
  });

  it('refunds one line of a basket order by lineId: that line leaves the library, the other stays', async () => {
    const o = await basketOrder();
    const before = await revenue();
    // Asked on the e-book's row, for the audiobook's line.
    const res = await refund(o.ebook.id, { lineId: o.audiobookLine });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: o.ebook.id, status: 'completed', lineId: o.ebookLine });
    const rows = await rowsOf(o.user.id);
    expect(rows.find((r) => r.id === o.audiobook.id)).toMatchObject({ status: 'refunded', refundedAmount: o.audiobook.price });
    expect(await libraryFormats(o.agent)).toEqual(['ebook', 'pdf']);
    expect(await revenue()).toBe(before - o.audiobook.price);
    const again = await refund(o.ebook.id, { lineId: o.audiobookLine });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This line has already been refunded');

    // An amount of a line.
    const part = await refund(o.audiobook.id, { lineId: o.ebookLine, amount: 100 });
    expect(part.statusCode, part.body).toBe(200);
    expect((await rowsOf(o.user.id)).find((r) => r.id === o.ebook.id)).toMatchObject({ status: 'completed', refundedAmount: 100 });
    expect(await revenue()).toBe(before - o.audiobook.price - 100);
  });

  it('refuses a line of another order, bad input and unknown orders, and changes nothing', async () => {
    const o = await basketOrder();
    const other = await basketOrder();
    const foreign = await refund(o.ebook.id, { lineId: other.audiobookLine });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('This order has no such line');
    const { user, agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const [direct] = await rowsOf(user.id);
    expect((await refund(direct.id, { lineId: o.ebookLine })).json().message).toBe('This order has no such line');

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 0 }, 'The amount must be at least 1p'],
      [{ amount: 1.5 }, 'The amount must be a whole number of pence'],
      [{ amount: '300' }, 'The amount must be a number of pence'],
    ];
    for (const [body, message] of cases) {
      const res = await refund(direct.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect((await refund(direct.id, { whole: true })).statusCode).toBe(400);
    expect((await refund(999_999, { amount: 100 })).statusCode).toBe(404);
    const rows = [...(await rowsOf(o.user.id)), ...(await rowsOf(user.id))];
    expect(rows.every((r) => r.status === 'completed' && r.refundedAmount === 0)).toBe(true);
    expect(await t.database.db.select().from(refunds).where(eq(refunds.purchaseId, direct.id))).toEqual([]);
  });

  it('only an admin refunds', async () => {
    const { user, agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const [row] = await rowsOf(user.id);
    expect((await agent.post(`/api/admin/orders/${row.id}/refund`, { amount: 100 })).statusCode).toBe(403);
    expect((await rowsOf(user.id))[0].refundedAmount).toBe(0);
  });

  it('shares an amount over rows by what is left of each, in whole pence, never more than is left', () => {
    expect(shareOut(300, [1000, 2000])).toEqual([100, 200]);
    expect(shareOut(100, [1, 1, 1])).toEqual([1, 1, 1]);
    expect(shareOut(7, [3, 3, 3])).toEqual([3, 2, 2]);
    expect(shareOut(10, [3, 3, 3])).toEqual([3, 3, 3]);
    expect(shareOut(5, [0, 10])).toEqual([0, 5]);
    expect(shareOut(0, [])).toEqual([]);
  });
});
