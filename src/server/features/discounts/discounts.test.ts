import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES, DISCOUNT_REFUSALS } from '@shared/schemas/discounts';
import { checkoutSessions, discountCodes, mailOutbox, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId } from '../checkout/test-support';

describe('discount codes', () => {
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>['agent'];
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
    ({ agent: admin } = await adminAgent(t));
  });
  afterAll(() => t.close());

  const newBuyer = async () => {
    const user = await createUser(t.database);
    return { user, agent: await signedInAgent(t.app, user.id) };
  };
  const code = (prefix: string) => `${prefix}${++counter}`;
  const createCode = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/admin/discounts', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; code: string; redemptions: number };
  };
  const purchasesOf = (userId: number) => t.database.db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(purchases.id);

  it('the admin creates, lists and edits codes; readers cannot', async () => {
    const created = await createCode({ code: code('Launch'), percentOff: 20, formats: ['ebook', 'hardcover'], maxRedemptions: 5 });
    expect(created).toMatchObject({ percentOff: 20, amountOff: null, formats: ['ebook', 'hardcover'], maxRedemptions: 5, redemptions: 0, active: true, expiresAt: null });
    const list = (await admin.get('/api/admin/discounts')).json().items as Array<{ id: number }>;
    expect(list.map((d) => d.id)).toContain(created.id);
    const edited = await admin.put(`/api/admin/discounts/${created.id}`, { code: created.code, amountOff: 300, active: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ percentOff: null, amountOff: 300, formats: null, active: false });

    const { agent } = await newBuyer();
    expect((await agent.get('/api/admin/discounts')).statusCode).toBe(403);
    expect((await agent.post('/api/admin/discounts', { code: 'MINE', percentOff: 100 })).statusCode).toBe(403);
  });

  it('refuses bad codes with clear messages and changes nothing', async () => {
    const before = await t.database.db.select().from(discountCodes);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: '', percentOff: 10 }, 'Code is required'],
      [{ code: 'has space', percentOff: 10 }, 'Code may contain letters, numbers, dashes and underscores only'],
      [{ code: 'NOVALUE' }, 'Give either a percentage off or an amount off'],
      [{ code: 'BOTH', percentOff: 10, amountOff: 100 }, 'Give a percentage off or an amount off, not both'],
      [{ code: 'TOOMUCH', percentOff: 101 }, 'Percentage off must be a whole number from 1 to 100'],
      [{ code: 'ZERO', percentOff: 0 }, 'Percentage off must be a whole number from 1 to 100'],
      [{ code: 'NEG', amountOff: -5 }, 'Amount off must be a whole number of pence, at least 1'],
      [{ code: 'FRACTION', amountOff: 2.5 }, 'Amount off must be a whole number of pence, at least 1'],
      [{ code: 'MAXZERO', percentOff: 5, maxRedemptions: 0 }, 'Maximum uses must be a whole number of at least 1'],
      [{ code: 'NOFORMATS', percentOff: 5, formats: [] }, 'Choose at least one format, or leave formats out for all'],
      [{ code: 'BADFORMAT', percentOff: 5, formats: ['scroll'] }, 'Invalid format specified'],
      [{ code: 'BADDATE', percentOff: 5, expiresAt: 'next tuesday' }, 'Expiry must be a date and time'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/admin/discounts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(message);
    }
    expect(await t.database.db.select().from(discountCodes)).toHaveLength(before.length);
  });

  it('refuses an expiry that has already passed, on create and on change; an expired code can still be switched off', async () => {
    const past = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const before = await t.database.db.select().from(discountCodes);
    const refused = await admin.post('/api/admin/discounts', { code: code('Late'), percentOff: 10, expiresAt: past });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: 'This expiry date has already passed. Choose a later date, or leave it empty for a code that never expires.',
      fields: { expiresAt: 'This expiry date has already passed. Choose a later date, or leave it empty for a code that never expires.' },
    });
    expect(await t.database.db.select().from(discountCodes)).toHaveLength(before.length);

    const name = code('Soon');
    const created = await createCode({ code: name, percentOff: 10, expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    const moved = await admin.put(`/api/admin/discounts/${created.id}`, { code: name, percentOff: 10, expiresAt: past });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().fields.expiresAt).toBe(DISCOUNT_MESSAGES.expiryPast);

    // Expired since it was saved: switching it off keeps the expiry it has.
    await t.database.db.update(discountCodes).set({ expiresAt: new Date(past) }).where(eq(discountCodes.id, created.id));
    const off = await admin.put(`/api/admin/discounts/${created.id}`, { code: name, percentOff: 10, expiresAt: past, active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ active: false, expiresAt: past });
  });

  it('codes are unique whatever their case', async () => {
    const name = code('Summer');
    await createCode({ code: name, percentOff: 10 });
    const again = await admin.post('/api/admin/discounts', { code: name.toUpperCase(), amountOff: 100 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A discount code with this code already exists');
  });

  it('charges and shows the discounted price; the code is case-insensitive', async () => {
    const name = code('Half');
    await createCode({ code: name, percentOff: 50 });
    const { user, agent } = await newBuyer();
    const quote = await agent.get(`/api/checkout/quote?bookId=${bookId}&format=ebook&discountCode=${name.toLowerCase()}`);
    expect(quote.json()).toEqual({ amount: 499, displayPrice: '£4.99', originalAmount: 999, displayOriginalPrice: '£9.99', discountCode: name });

    const res = await agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: name.toLowerCase() });
    expect(res.statusCode, res.body).toBe(200);
    const sessionId = res.json().url.split('/').pop();
    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page).toMatchObject({ amount: 499, displayPrice: '£4.99', originalAmount: 999, displayOriginalPrice: '£9.99', discountCode: name });

    const pay = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(pay.json().status).toBe('completed');
    const [row] = await purchasesOf(user.id);
    expect(row).toMatchObject({ format: 'ebook', price: 499, kind: 'paid' });
    const [stored] = await t.database.db.select().from(discountCodes).where(eq(discountCodes.code, name));
    expect(stored.redemptions).toBe(1);
    // The receipt shows the list price, the discount with its code, and what was paid.
    const [receipt] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(receipt.text).toContain(`List price: £9.99\nDiscount (code ${name}): -£5.00\nTotal paid: £4.99\n`);
    expect(receipt.html).toContain('<td><strong>Total paid</strong></td><td><strong>£4.99</strong></td>');
    // "Your Orders" lists the e-book order with its discount.
    const orders = (await agent.get('/api/library/orders')).json();
    expect(orders).toEqual([
      expect.objectContaining({ format: 'ebook', status: 'completed', displayPrice: '£4.99', displayListPrice: '£9.99', discountCode: name, refundedAt: null }),
    ]);
  });

  it('an amount off never takes the price below £0.30', async () => {
    const name = code('Big');
    await createCode({ code: name, amountOff: 5000 });
    const { agent } = await newBuyer();
    const sessionId = (await agent.post('/api/checkout', { bookId, format: 'audiobook', discountCode: name })).json().url.split('/').pop();
    const [row] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(row).toMatchObject({ amount: 30, originalAmount: 1499 });
  });

  it('refuses unknown, inactive, expired, used-up and inapplicable codes, creating nothing', async () => {
    const inactive = code('Off');
    await createCode({ code: inactive, percentOff: 10, active: false });
    const expired = code('Old');
    const expiredRow = await createCode({ code: expired, percentOff: 10, expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    // Time passes: the code's expiry is now behind it.
    await t.database.db.update(discountCodes).set({ expiresAt: new Date(t.clock.now().getTime() - 1000) }).where(eq(discountCodes.id, expiredRow.id));
    const spent = code('Spent');
    const spentRow = await createCode({ code: spent, percentOff: 10, maxRedemptions: 1 });
    await t.database.db.update(discountCodes).set({ redemptions: 1 }).where(eq(discountCodes.id, spentRow.id));
    const printOnly = code('Print');
    await createCode({ code: printOnly, percentOff: 10, formats: ['hardcover', 'paperback'] });

    const { user, agent } = await newBuyer();
    const cases: Array<[string, string]> = [
      ['NOPE-NOT-A-CODE', DISCOUNT_REFUSALS.unknown],
      [inactive, DISCOUNT_REFUSALS.inactive],
      [expired, DISCOUNT_REFUSALS.expired],
      [spent, DISCOUNT_REFUSALS.exhausted],
      [printOnly, 'This discount code does not apply to the e-book'],
    ];
    for (const [discountCode, message] of cases) {
      const res = await agent.post('/api/checkout', { bookId, format: 'ebook', discountCode });
      expect(res.statusCode, discountCode).toBe(400);
      expect(res.json().message, discountCode).toBe(message);
      const quote = await agent.get(`/api/checkout/quote?bookId=${bookId}&format=ebook&discountCode=${discountCode}`);
      expect(quote.statusCode).toBe(400);
      expect(quote.json().message).toBe(message);
    }
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toHaveLength(0);
    // A blank code is no code.
    expect((await agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: '  ' })).statusCode).toBe(200);
  });

  it('a code used up between checkout and payment is refused on the local page before anything is charged', async () => {
    const name = code('Last');
    const created = await createCode({ code: name, percentOff: 10, maxRedemptions: 1 });
    const first = await newBuyer();
    const second = await newBuyer();
    const a = (await first.agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: name })).json().url.split('/').pop();
    const b = (await second.agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: name })).json().url.split('/').pop();
    expect((await first.agent.post(`/api/checkout/sessions/${a}/pay`)).json().status).toBe('completed');
    const refused = await second.agent.post(`/api/checkout/sessions/${b}/pay`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(DISCOUNT_REFUSALS.ranOut);
    expect(await purchasesOf(second.user.id)).toHaveLength(0);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, b));
    expect(session.status).toBe('cancelled');
    const [stored] = await t.database.db.select().from(discountCodes).where(eq(discountCodes.id, created.id));
    expect(stored.redemptions).toBe(1);
  });

  it('a code switched off between checkout and payment keeps the price agreed at checkout', async () => {
    const name = code('Withdrawn');
    const created = await createCode({ code: name, percentOff: 50 });
    const { user, agent } = await newBuyer();
    const sessionId = (await agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: name })).json().url.split('/').pop();
    const off = await admin.put(`/api/admin/discounts/${created.id}`, { code: name, percentOff: 50, active: false });
    expect(off.json().active).toBe(false);
    // New checkouts are refused at once ...
    const later = await newBuyer();
    const refused = await later.agent.post('/api/checkout', { bookId, format: 'ebook', discountCode: name });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(DISCOUNT_REFUSALS.inactive);
    // ... but the reader who already agreed the price pays that price (decision 0050).
    expect((await agent.get(`/api/checkout/sessions/${sessionId}`)).json()).toMatchObject({ amount: 499, displayPrice: '£4.99', discountCode: name });
    expect((await agent.post(`/api/checkout/sessions/${sessionId}/pay`)).json().status).toBe('completed');
    // The e-book as paid, and the PDF edition that comes with it (decision 0066).
    expect(await purchasesOf(user.id)).toMatchObject([
      { format: 'ebook', price: 499, kind: 'paid' },
      { format: 'pdf', price: 0, kind: 'included' },
    ]);
    const [stored] = await t.database.db.select().from(discountCodes).where(eq(discountCodes.id, created.id));
    expect(stored).toMatchObject({ active: false, redemptions: 1 });
  });

  it('dashboard revenue counts what was paid', async () => {
    const before = (await admin.get('/api/dashboard/stats')).json();
    const name = code('Rev');
    await createCode({ code: name, amountOff: 499 });
    const { agent } = await newBuyer();
    const sessionId = await startCheckoutWith(agent, name);
    await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    const after = (await admin.get('/api/dashboard/stats')).json();
    expect(after.salesStats.totalRevenue - before.salesStats.totalRevenue).toBe(500);
    expect(after.salesStats.totalSales - before.salesStats.totalSales).toBe(1);
  });

  async function startCheckoutWith(agent: Awaited<ReturnType<typeof newBuyer>>['agent'], discountCode: string) {
    const res = await agent.post('/api/checkout', { bookId, format: 'ebook', discountCode });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().url.split('/').pop() as string;
  }
});
