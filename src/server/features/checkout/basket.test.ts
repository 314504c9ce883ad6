import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASKET_MESSAGES } from '@shared/schemas/basket';
import { basketItems, bookPrices, checkoutSessions, mailOutbox, orderLines, orders, purchaseCustomerInfo, purchases } from '../../db/schema';
import { TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { buy, newReader, storeApp, TEST_ADDRESS } from './test-support';

describe('the basket', () => {
  let t: TestApp;
  let bookId: number;
  let upcomingId: number;
  beforeAll(async () => {
    ({ t, bookId } = await storeApp());
    const books = (await t.app.inject({ method: 'GET', url: '/api/books' })).json() as Array<{ id: number; featured: boolean }>;
    upcomingId = books.find((b) => !b.featured)!.id;
  });
  afterAll(() => t.close());

  const reader = () => newReader(t);
  const add = (agent: TestAgent, body: Record<string, unknown>) => agent.post('/api/basket/items', body);

  it('answers 401 to a signed-out caller on every route of the account basket', async () => {
    const anonymous = new TestAgent(t.app);
    expect((await anonymous.get('/api/basket')).statusCode).toBe(401);
    expect((await add(anonymous, { bookId, format: 'ebook' })).statusCode).toBe(401);
    expect((await anonymous.patch('/api/basket/items/1', { quantity: 2 })).statusCode).toBe(401);
    expect((await anonymous.delete('/api/basket/items/1')).statusCode).toBe(401);
    expect((await anonymous.post('/api/checkout/basket', {})).statusCode).toBe(401);
  });

  it('adds lines priced by the server and answers the lines, the count and the totals', async () => {
    const { agent } = await reader();
    expect((await agent.get('/api/basket')).json()).toMatchObject({ lines: [], count: 0, total: 0 });
    const first = await add(agent, { bookId, format: 'hardcover', quantity: 2, price: 1 });
    expect(first.statusCode, first.body).toBe(200);
    await add(agent, { bookId, format: 'ebook' });
    const again = await add(agent, { bookId, format: 'hardcover' });
    const basket = again.json();
    expect(basket.lines).toHaveLength(2);
    expect(basket.lines[0]).toMatchObject({
      format: 'hardcover',
      formatLabel: 'Hardcover',
      quantity: 3,
      unitPrice: 2499,
      displayUnitPrice: '£24.99',
      lineTotal: 7497,
      displayLineTotal: '£74.97',
      digital: false,
      problem: null,
    });
    expect(basket.lines[0].title).toBeTruthy();
    expect(basket.lines[0].coverImage).toBeTruthy();
    expect(basket.lines[1]).toMatchObject({ format: 'ebook', quantity: 1, lineTotal: 999 });
    expect(basket).toMatchObject({ count: 4, subtotal: 8496, discount: 0, total: 8496, displayTotal: '£84.96' });
    // The same digital format twice is still one line of one.
    const ebookAgain = await add(agent, { bookId, format: 'ebook' });
    expect(ebookAgain.json().count).toBe(4);
  });

  it('refuses bad input with the field messages, and nothing changes', async () => {
    const { agent, user } = await reader();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bookId, format: 'scroll' }, 'Invalid format specified'],
      [{ bookId: 'x', format: 'ebook' }, BASKET_MESSAGES.bookId],
      [{ bookId, format: 'hardcover', quantity: 11 }, BASKET_MESSAGES.quantity],
      [{ bookId, format: 'hardcover', quantity: 0 }, BASKET_MESSAGES.quantity],
      [{ bookId, format: 'hardcover', quantity: 1.5 }, BASKET_MESSAGES.quantity],
      [{ bookId, format: 'ebook', quantity: 2 }, BASKET_MESSAGES.digitalQuantity],
    ];
    for (const [body, message] of cases) {
      const res = await add(agent, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await add(agent, { bookId: 999999, format: 'ebook' })).statusCode).toBe(404);
    const rows = await t.database.db.select().from(basketItems).where(eq(basketItems.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('keeps print quantities within 1 to 10, also when adding to a line', async () => {
    const { agent } = await reader();
    const line = (await add(agent, { bookId, format: 'paperback', quantity: 9 })).json().lines[0];
    const over = await add(agent, { bookId, format: 'paperback', quantity: 2 });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(BASKET_MESSAGES.quantity);
    expect((await agent.get('/api/basket')).json().lines[0].quantity).toBe(9);
    const patched = await agent.patch(`/api/basket/items/${line.id}`, { quantity: 10 });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().lines[0].quantity).toBe(10);
    const tooMany = await agent.patch(`/api/basket/items/${line.id}`, { quantity: 11 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(BASKET_MESSAGES.quantity);
    const ebook = (await add(agent, { bookId, format: 'ebook' })).json().lines.find((l: { format: string }) => l.format === 'ebook');
    const digital = await agent.patch(`/api/basket/items/${ebook.id}`, { quantity: 2 });
    expect(digital.statusCode).toBe(400);
    expect(digital.json().message).toBe(BASKET_MESSAGES.digitalQuantity);
  });

  it("answers 404 for another reader's line, and leaves it alone", async () => {
    const owner = await reader();
    const line = (await add(owner.agent, { bookId, format: 'hardcover', quantity: 2 })).json().lines[0];
    const other = await reader();
    const patch = await other.agent.patch(`/api/basket/items/${line.id}`, { quantity: 5 });
    expect(patch.statusCode).toBe(404);
    expect(patch.json().message).toBe(BASKET_MESSAGES.itemNotFound);
    expect((await other.agent.delete(`/api/basket/items/${line.id}`)).statusCode).toBe(404);
    expect((await owner.agent.get('/api/basket')).json().lines[0].quantity).toBe(2);
    const removed = await owner.agent.delete(`/api/basket/items/${line.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().lines).toHaveLength(0);
    expect((await owner.agent.delete('/api/basket/items/abc')).statusCode).toBe(400);
  });

  it('refuses a digital format the reader owns ("Already in your library") and a book not on sale', async () => {
    const { agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const owned = await add(agent, { bookId, format: 'ebook' });
    expect(owned.statusCode).toBe(409);
    expect(owned.json()).toMatchObject({ code: 'ALREADY_OWNED', message: 'Already in your library' });
    // Print is never owned: another copy can go in the basket.
    expect((await add(agent, { bookId, format: 'hardcover' })).statusCode).toBe(200);
    const upcoming = await add(agent, { bookId: upcomingId, format: 'hardcover' });
    expect(upcoming.statusCode).toBe(409);
    expect(upcoming.json().message).toMatch(/is no longer on sale$/);
  });

  it('prices a visitor basket kept in the browser', async () => {
    const res = await new TestAgent(t.app).post('/api/basket/preview', {
      items: [
        { bookId, format: 'paperback', quantity: 2 },
        { bookId, format: 'audiobook' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ count: 3, subtotal: 2 * 1699 + 1499 });
    const bad = await new TestAgent(t.app).post('/api/basket/preview', { items: [{ bookId, format: 'paperback', quantity: 12 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(BASKET_MESSAGES.quantity);
  });

  it('refuses an empty basket before any payment', async () => {
    const { agent, user } = await reader();
    const res = await agent.post('/api/checkout/basket', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BASKET_EMPTY', message: 'Your basket is empty' });
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toHaveLength(0);
  });

  it('refuses a changed price naming the line, then charges the new price the basket shows', async () => {
    const { agent, user } = await reader();
    await add(agent, { bookId, format: 'ebook' });
    await add(agent, { bookId, format: 'paperback' });
    await t.database.db.update(bookPrices).set({ price: 1799 }).where(and(eq(bookPrices.bookId, bookId), eq(bookPrices.format, 'paperback')));
    try {
      const shown = (await agent.get('/api/basket')).json();
      expect(shown.lines[1].problem).toMatch(/^The price of .+ \(Paperback\) has changed from £16\.99 to £17\.99$/);
      const refused = await agent.post('/api/checkout/basket', {});
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('PRICE_CHANGED');
      expect(refused.json().message).toMatch(/\(Paperback\) has changed from £16\.99 to £17\.99/);
      expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toHaveLength(0);
      const after = (await agent.get('/api/basket')).json();
      expect(after.lines[1]).toMatchObject({ unitPrice: 1799, problem: null });
      const started = await agent.post('/api/checkout/basket', {});
      expect(started.statusCode, started.body).toBe(200);
      const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
      expect(session.amount).toBe(999 + 1799);
    } finally {
      await t.database.db.update(bookPrices).set({ price: 1699 }).where(and(eq(bookPrices.bookId, bookId), eq(bookPrices.format, 'paperback')));
    }
  });

  it('refuses a line whose price is gone, naming it, before any payment', async () => {
    const { agent, user } = await reader();
    await add(agent, { bookId, format: 'audiobook' });
    const [price] = await t.database.db.delete(bookPrices).where(and(eq(bookPrices.bookId, bookId), eq(bookPrices.format, 'audiobook'))).returning();
    try {
      const res = await agent.post('/api/checkout/basket', {});
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/\(Audiobook\) is no longer on sale$/);
      expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toHaveLength(0);
    } finally {
      await t.database.db.insert(bookPrices).values(price);
    }
  });

  it('refuses a digital line the reader came to own since adding it', async () => {
    const { agent } = await reader();
    await add(agent, { bookId, format: 'audiobook' });
    await buy(agent, bookId, 'audiobook');
    const res = await agent.post('/api/checkout/basket', {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ALREADY_OWNED' });
    expect(res.json().message).toMatch(/\(Audiobook\) is already in your library$/);
  });

  it('validates the checkout body', async () => {
    const { agent } = await reader();
    await add(agent, { bookId, format: 'ebook' });
    const country = await agent.post('/api/checkout/basket', { shippingCountry: 'United Kingdom' });
    expect(country.statusCode).toBe(400);
    expect(country.json().message).toBe(BASKET_MESSAGES.country);
    const code = await agent.post('/api/checkout/basket', { discountCode: 'NOPE' });
    expect(code.statusCode).toBe(400);
    expect(code.json().message).toBe('This discount code does not exist');
  });

  it('pays every line at once: one order with lines, each fulfilled, the basket emptied, one receipt listing them', async () => {
    const { agent, user } = await reader();
    await add(agent, { bookId, format: 'hardcover', quantity: 2 });
    await add(agent, { bookId, format: 'audiobook' });
    const started = await agent.post('/api/checkout/basket', { shippingCountry: 'gb' });
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = (started.json().url as string).split('/').pop()!;
    // The same basket sent again answers the same payment page.
    expect((await agent.post('/api/checkout/basket', { shippingCountry: 'GB' })).json().url).toBe(started.json().url);

    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page).toMatchObject({ amount: 2 * 2499 + 1499, displayPrice: '£64.97', digital: false, status: 'open', orderReference: null });
    expect(page.lines.map((l: { description: string; quantity: number; displayAmount: string }) => [l.description.split(' (')[1], l.quantity, l.displayAmount])).toEqual([
      ['Hardcover)', 2, '£49.98'],
      ['Audiobook)', 1, '£14.99'],
    ]);
    const noAddress = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(noAddress.statusCode).toBe(400);
    const paid = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: TEST_ADDRESS });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'completed', redirectTo: `/pay/${sessionId}` });
    const again = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: TEST_ADDRESS });
    expect(again.statusCode).toBe(200);

    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order).toMatchObject({ checkoutSessionId: sessionId, subtotal: 6497, total: 6497, shippingCountry: 'GB' });
    expect(order.paidAt).not.toBeNull();
    expect(paid.json().orderReference).toBe(order.reference);
    const lines = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
    expect(lines).toHaveLength(2);
    const bought = await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id));
    const byFormat = (f: string) => bought.filter((p) => p.format === f);
    expect(byFormat('hardcover')).toMatchObject([{ kind: 'paid', price: 4998, quantity: 2, status: 'completed', maxDownloads: 0 }]);
    expect(byFormat('audiobook')).toMatchObject([{ kind: 'paid', price: 1499, quantity: 1, status: 'completed', maxDownloads: 1 }]);
    // The hardcover brings its ebook, and the ebook its PDF edition.
    expect(byFormat('ebook')).toMatchObject([{ kind: 'included', price: 0 }]);
    expect(byFormat('pdf')).toHaveLength(1);
    expect(lines.map((l) => l.purchaseId).sort()).toEqual([byFormat('hardcover')[0].id, byFormat('audiobook')[0].id].sort());
    const [shipTo] = await t.database.db.select().from(purchaseCustomerInfo).where(eq(purchaseCustomerInfo.purchaseId, byFormat('hardcover')[0].id));
    expect(shipTo.shippingAddress).toMatchObject({ name: TEST_ADDRESS.name });

    const library = (await agent.get('/api/library/books')).json() as Array<{ format: string }>;
    expect(library.map((i) => i.format)).toEqual(expect.arrayContaining(['audiobook', 'ebook']));
    expect((await agent.get('/api/basket')).json().lines).toHaveLength(0);
    const receipts = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipts).toHaveLength(1);
    expect(receipts[0].subject).toBe(`Your receipt for order ${order.reference}`);
    expect(receipts[0].text).toMatch(/\(Hardcover\): 2 x £24\.99 = £49\.98 \(includes the E-Book and the PDF edition\)/);
    expect(receipts[0].text).toMatch(/\(Audiobook\): £14\.99/);
    expect(receipts[0].text).toContain('Total paid: £64.97');
    const confirmation = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(confirmation).toMatchObject({ status: 'completed', orderReference: order.reference });
  });

  it('applies a discount code to each line it covers, and counts one use per order', async () => {
    const { agent: admin } = await adminAgent(t);
    const code = await admin.post('/api/admin/discounts', { code: 'PRINT10', percentOff: 10, formats: ['paperback'] });
    expect(code.statusCode, code.body).toBe(201);
    const { agent, user } = await reader();
    await add(agent, { bookId, format: 'paperback', quantity: 3 });
    await add(agent, { bookId, format: 'ebook' });
    const quoted = (await agent.get('/api/basket?discountCode=print10')).json();
    expect(quoted).toMatchObject({ subtotal: 3 * 1699 + 999, discount: 3 * 170, total: 3 * 1529 + 999, discountCode: 'PRINT10' });
    const onlyEbook = await reader();
    await add(onlyEbook.agent, { bookId, format: 'ebook' });
    const refused = await onlyEbook.agent.get('/api/basket?discountCode=PRINT10');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('This discount code does not apply to the e-book');

    const sessionId = ((await agent.post('/api/checkout/basket', { discountCode: 'PRINT10' })).json().url as string).split('/').pop()!;
    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page).toMatchObject({ amount: quoted.total, originalAmount: quoted.subtotal, discountCode: 'PRINT10' });
    expect(page.lines[0]).toMatchObject({ quantity: 3, unitPrice: 1699, amount: 3 * 1529 });
    await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: TEST_ADDRESS });
    const [paperback] = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, user.id), eq(purchases.format, 'paperback')));
    expect(paperback.price).toBe(3 * 1529);
    expect((await admin.get('/api/admin/discounts')).json().items.find((d: { code: string }) => d.code === 'PRINT10').redemptions).toBe(1);
  });

  it('refunds one line of an order on its own, and leaves the others', async () => {
    const { agent, user } = await reader();
    await add(agent, { bookId, format: 'audiobook' });
    await add(agent, { bookId, format: 'ebook' });
    const sessionId = ((await agent.post('/api/checkout/basket', {})).json().url as string).split('/').pop()!;
    await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    const [audiobook] = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, user.id), eq(purchases.format, 'audiobook')));
    const { agent: admin } = await adminAgent(t);
    const refund = await admin.post(`/api/admin/orders/${audiobook.id}/refund`);
    expect(refund.statusCode, refund.body).toBe(200);
    const rows = await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id));
    expect(rows.find((r) => r.format === 'audiobook')!.status).toBe('refunded');
    expect(rows.find((r) => r.format === 'ebook')!.status).toBe('completed');
  });
});
