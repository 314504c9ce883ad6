import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookPrices, checkoutSessions, mailOutbox, purchaseCustomerInfo, purchases } from '../../db/schema';
import { TestAgent, type TestApp, createUser, signedInAgent } from '../../test/helpers';
import { TEST_ADDRESS, buy, newBuyer, startCheckout, storeApp } from './test-support';

describe('checkout with the local payment page', () => {
  let t: TestApp;
  let bookId: number;
  beforeAll(async () => ({ t, bookId } = await storeApp({ env: { PUBLIC_URL: 'https://shop.example.com' } })));
  afterAll(() => t.close());


  it('lists the four formats with server prices and the seeded display text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/store/formats' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.book.id).toBe(bookId);
    expect(body.formats.map((f: { id: string }) => f.id)).toEqual(['hardcover', 'paperback', 'ebook', 'audiobook']);
    const ebook = body.formats.find((f: { id: string }) => f.id === 'ebook');
    expect(ebook).toMatchObject({ price: 999, displayPrice: '£9.99', currency: 'GBP' });
    expect(ebook.features.length).toBeGreaterThan(0);
    expect(ebook.buttonText).toBeTruthy();
  });

  it('refuses an anonymous checkout with 401', async () => {
    const res = await new TestAgent(t.app).post('/api/checkout', { bookId, format: 'ebook' });
    expect(res.statusCode).toBe(401);
  });

  it('prices the checkout from the server table, ignoring any amount the client sends', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const res = await agent.post('/api/checkout', { bookId, format: 'ebook', amount: 1 });
    expect(res.statusCode).toBe(200);
    const sessionId = res.json().url.split('/').pop();
    const [row] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(row).toMatchObject({ amount: 999, currency: 'GBP', format: 'ebook', status: 'open', provider: 'local' });
    const page = await agent.get(`/api/checkout/sessions/${sessionId}`);
    expect(page.json()).toMatchObject({ displayPrice: '£9.99', format: 'ebook', digital: true, status: 'open' });
  });

  it('refuses unknown formats, unknown books and books not on sale with clear 4xx errors', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const badFormat = await agent.post('/api/checkout', { bookId, format: 'scroll' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().message).toBe('Invalid format specified');
    const noBook = await agent.post('/api/checkout', { bookId: 999999, format: 'ebook' });
    expect(noBook.statusCode).toBe(404);
    const books = (await t.app.inject({ method: 'GET', url: '/api/books' })).json() as Array<{ id: number; featured: boolean }>;
    const upcoming = books.find((b) => !b.featured)!;
    const notOnSale = await agent.post('/api/checkout', { bookId: upcoming.id, format: 'ebook' });
    expect(notOnSale.statusCode).toBe(409);
    expect(notOnSale.json().message).toMatch(/not available/);
    // Even with a price in the table (the admin gives every new book the list prices), a book that is
    // not featured cannot be bought, physical formats included.
    await t.database.db.insert(bookPrices).values({ bookId: upcoming.id, format: 'hardcover', price: 2499 }).onConflictDoNothing();
    const hardcover = await agent.post('/api/checkout', { bookId: upcoming.id, format: 'hardcover' });
    expect(hardcover.statusCode).toBe(409);
    expect(hardcover.json().message).toBe('The book is currently not available for purchase');
  });

  it('paying fulfils once: purchase, customer info, receipt mail with the library link', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const paid = await buy(agent, bookId, 'ebook');
    expect(paid).toMatchObject({ status: 'completed', redirectTo: '/profile#library' });
    expect(paid.orderReference).toMatch(/^WWD-[0-9A-F]{10}$/);

    // Paying again (a double click, a retry) changes nothing.
    const again = await agent.post(`/api/checkout/sessions/${paid.sessionId}/pay`);
    expect(again.json().status).toBe('completed');

    const rows = await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id)).orderBy(purchases.id);
    // The e-book and the PDF edition that comes with it (decision 0066), each with its own download.
    expect(rows.map((r) => r.format)).toEqual(['ebook', 'pdf']);
    expect(rows[1]).toMatchObject({
      price: 0,
      kind: 'included',
      paidByPurchaseId: rows[0].id,
      maxDownloads: 1,
      orderReference: `${paid.orderReference}-PDF`,
    });
    expect(rows[0]).toMatchObject({
      format: 'ebook',
      price: 999,
      status: 'completed',
      downloadCount: 0,
      maxDownloads: 1,
      downloadUsed: false,
      orderReference: paid.orderReference,
    });
    const [info] = await t.database.db
      .select()
      .from(purchaseCustomerInfo)
      .where(eq(purchaseCustomerInfo.purchaseId, rows[0].id));
    expect(info).toMatchObject({ customerEmail: user.email, stripeSessionId: `local_${paid.sessionId}` });
    expect(info.customerName).toBeTruthy();

    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe('receipt');
    expect(mails[0].text).toContain('https://shop.example.com/profile#library');
    expect(mails[0].text).toContain(paid.orderReference!);
    expect(mails[0].text).toContain('List price: £9.99\nDiscount: None\nTotal paid: £9.99\n');
    expect(mails[0].text).toContain('Includes: the PDF edition, with its own download in your library');
  });

  it('a hardcover is an order to ship: listed with its status; only its included ebook is in the library', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const paid = await buy(agent, bookId, 'hardcover');
    expect(paid.redirectTo).toBe(`/pay/${paid.sessionId}`);
    const orders = (await agent.get('/api/library/orders')).json();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ format: 'hardcover', status: 'completed', displayPrice: '£24.99', shippedAt: null });
    const library = (await agent.get('/api/library/books')).json() as Array<{ format: string; includedWith: string | null }>;
    expect(library.map((i) => [i.format, i.includedWith])).toEqual([['ebook', 'hardcover'], ['pdf', 'ebook']]);
  });

  it('a print order on the local page asks where to ship it; the address is kept on the order and shown', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const sessionId = await startCheckout(agent, bookId, 'paperback');
    const missing = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'Enter the address to ship your order to.', fields: { shippingAddress: 'Enter the address to ship your order to.' } });
    const blank = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: { ...TEST_ADDRESS, city: '  ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Enter the town or city');
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id))).toHaveLength(0);

    const paid = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: { ...TEST_ADDRESS, line2: 'Flat 2' } });
    expect(paid.json().status).toBe('completed');
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id));
    const [info] = await t.database.db.select().from(purchaseCustomerInfo).where(eq(purchaseCustomerInfo.purchaseId, row.id));
    expect(info.shippingAddress).toEqual({
      name: 'Ada Reader',
      address: { line1: '1 Harbour Street', line2: 'Flat 2', city: 'Whitby', postal_code: 'YO21 3PU', country: 'United Kingdom' },
    });
    const confirmation = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(confirmation.shippingAddress).toEqual(['Ada Reader', '1 Harbour Street', 'Flat 2', 'Whitby YO21 3PU', 'United Kingdom']);
  });

  it("another user can neither see nor pay someone else's checkout", async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const sessionId = await startCheckout(agent, bookId, 'ebook');
    const other = await newBuyer(t, bookId, []);
    expect((await other.agent.get(`/api/checkout/sessions/${sessionId}`)).statusCode).toBe(404);
    expect((await other.agent.post(`/api/checkout/sessions/${sessionId}/pay`)).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(row.status).toBe('open');
  });

  it('a cancelled checkout cannot be paid afterwards', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const sessionId = await startCheckout(agent, bookId, 'ebook');
    const cancel = await agent.post(`/api/checkout/sessions/${sessionId}/cancel`);
    expect(cancel.json()).toMatchObject({ status: 'cancelled', redirectTo: '/#purchase' });
    const pay = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(pay.statusCode).toBe(409);
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id))).toHaveLength(0);
  });

  it('an expired checkout cannot be paid', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const sessionId = await startCheckout(agent, bookId, 'audiobook');
    t.clock.advance(61 * 60 * 1000);
    const pay = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(pay.statusCode).toBe(410);
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id))).toHaveLength(0);
  });

  it('requires the CSRF token to pay', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const sessionId = await startCheckout(agent, bookId, 'ebook');
    const res = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, undefined, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CSRF_ERROR');
  });
});

// Its own app: the checkout route allows 20 attempts a minute from one address.
describe('checkout request order', () => {
  let t: TestApp;
  let bookId: number;
  beforeAll(async () => ({ t, bookId } = await storeApp()));
  afterAll(() => t.close());

  it('judges the body before the session: an invalid body is 400 signed in or not, a valid one without a session 401', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const anonymous = new TestAgent(t.app);
    for (const body of [{}, { bookId, format: 'vinyl' }, { bookId: 'x', format: 'ebook' }, 'not json']) {
      for (const caller of [anonymous, agent]) {
        const res = await caller.post('/api/checkout', body, typeof body === 'string' ? { headers: { 'content-type': 'application/json' } } : {});
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    }
    const valid = await anonymous.post('/api/checkout', { bookId, format: 'ebook' });
    expect(valid.statusCode).toBe(401);
    expect(valid.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
