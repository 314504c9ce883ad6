import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkoutSessions, mailOutbox, orderLines, orders, purchases } from '../../db/schema';
import { TestAgent, type TestApp } from '../../test/helpers';
import { clearTaxAndShipping, newReader, storeAppWithAdmin, TEST_ADDRESS } from '../checkout/test-support';

describe('tax and shipping on the basket checkout (local provider)', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;
  beforeAll(async () => {
    ({ t, bookId, admin } = await storeAppWithAdmin());
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await clearTaxAndShipping(t, admin);
  });

  const reader = () => newReader(t);
  const ukZone = { name: 'United Kingdom', countries: ['gb'], firstItem: 350, additionalItem: 150, freeOver: null };
  const setTax = (body: Record<string, unknown>) => admin.put('/api/admin/tax', body);

  it('keeps the tax setting and rate table, refusing bad rates and a country with two rates for one format', async () => {
    expect((await admin.get('/api/admin/tax')).json()).toEqual({ pricesIncludeTax: true, defaultRate: 0, rates: [] });
    const bad = await setTax({ pricesIncludeTax: true, defaultRate: 20.125, rates: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('A rate is a percentage from 0 to 100 with at most two decimals');
    const twice = await setTax({ pricesIncludeTax: true, defaultRate: 20, rates: [{ country: 'DE', format: 'ebook', rate: 7 }, { country: 'de', format: 'ebook', rate: 19 }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('DE has two rates for ebook: keep one');
    const badCountry = await setTax({ pricesIncludeTax: true, defaultRate: 20, rates: [{ country: 'DEU', format: 'ebook', rate: 7 }] });
    expect(badCountry.json().message).toBe('A country is two letters, such as GB');
    expect((await admin.get('/api/admin/tax')).json().rates).toEqual([]);

    const saved = await setTax({ pricesIncludeTax: false, defaultRate: 20, rates: [{ country: 'de', format: 'ebook', rate: 7 }, { country: 'GB', format: 'hardcover', rate: 0 }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      pricesIncludeTax: false,
      defaultRate: 20,
      rates: [
        { country: 'DE', format: 'ebook', rate: 7 },
        { country: 'GB', format: 'hardcover', rate: 0 },
      ],
    });
    const { agent: someone } = await reader();
    expect((await someone.get('/api/admin/tax')).statusCode).toBe(403);
    expect((await someone.put('/api/admin/tax', { pricesIncludeTax: true, defaultRate: 0, rates: [] })).statusCode).toBe(403);
  });

  it('keeps shipping zones, one zone per country', async () => {
    const created = await admin.post('/api/admin/shipping-zones', ukZone);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'United Kingdom', countries: ['GB'], firstItem: 350, additionalItem: 150, freeOver: null });
    const overlapping = await admin.post('/api/admin/shipping-zones', { ...ukZone, name: 'Europe', countries: ['FR', 'GB'] });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json().message).toBe('GB is already in the zone United Kingdom');
    const invalid = await admin.post('/api/admin/shipping-zones', { ...ukZone, name: 'Europe', countries: [] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('List at least one country (two letters each, such as GB)');
    const negative = await admin.post('/api/admin/shipping-zones', { ...ukZone, name: 'Europe', countries: ['FR'], firstItem: -1 });
    expect(negative.json().message).toBe('A price is a whole number of pence from 0 to 100000');
    const id = created.json().id;
    const changed = await admin.put(`/api/admin/shipping-zones/${id}`, { ...ukZone, freeOver: 4000 });
    expect(changed.json().freeOver).toBe(4000);
    expect((await t.app.inject({ method: 'GET', url: '/api/shipping/countries' })).json()).toEqual({ countries: ['GB'] });
    expect((await admin.delete(`/api/admin/shipping-zones/${id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/admin/shipping-zones/${id}`)).statusCode).toBe(404);
    const { agent: someone } = await reader();
    expect((await someone.post('/api/admin/shipping-zones', ukZone)).statusCode).toBe(403);
  });

  it('adds shipping as its own line and shows the tax inside UK-style prices on the payment page, the order and the receipt', async () => {
    expect((await admin.post('/api/admin/shipping-zones', ukZone)).statusCode).toBe(201);
    expect((await setTax({ pricesIncludeTax: true, defaultRate: 20, rates: [{ country: 'GB', format: 'hardcover', rate: 0 }] })).statusCode).toBe(200);
    const { user, agent } = await reader();
    await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 });
    await agent.post('/api/basket/items', { bookId, format: 'audiobook' });
    const started = await agent.post('/api/checkout/basket', { shippingCountry: 'GB' });
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = (started.json().url as string).split('/').pop()!;

    // 2 x £24.99 at 0%, £14.99 at 20% included (£2.50), shipping £3.50 + £1.50 at the hardcover's 0%.
    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page).toMatchObject({
      amount: 6997,
      displayPrice: '£69.97',
      net: 6747,
      displayNet: '£67.47',
      tax: 250,
      displayTax: '£2.50',
      pricesIncludeTax: true,
      shipping: 500,
      displayShipping: '£5.00',
      shippingDescription: 'Shipping to United Kingdom',
    });
    expect(page.lines.map((l: { quantity: number; amount: number; tax: number }) => [l.quantity, l.amount, l.tax])).toEqual([
      [2, 4998, 0],
      [1, 1499, 250],
    ]);

    const paid = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: TEST_ADDRESS });
    expect(paid.statusCode, paid.body).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order).toMatchObject({ subtotal: 6497, shipping: 500, tax: 250, total: 6997, taxCountry: 'GB', pricesIncludeTax: true });
    const lines = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(orderLines.position);
    expect(lines.map((l) => [l.kind, l.format, l.amount, l.tax, l.taxRate])).toEqual([
      ['item', 'hardcover', 4998, 0, 0],
      ['item', 'audiobook', 1499, 250, 2000],
      ['shipping', null, 500, 0, 0],
    ]);
    // Shipping is charged, not fulfilled: the books became purchases, the shipping line did not.
    const bought = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, user.id), eq(purchases.kind, 'paid')));
    expect(bought.map((p) => [p.format, p.price]).sort()).toEqual([
      ['audiobook', 1499],
      ['hardcover', 4998],
    ]);
    const [receipt] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipt.text).toContain('Subtotal: £64.97\nShipping to United Kingdom: £5.00\nNet: £67.47\nTax included: £2.50\nTotal paid: £69.97\n');
    // "Your Orders": each line's net and tax, and the order's shipping on its print line.
    const yours = (await agent.get('/api/library/orders')).json() as Array<{ format: string; displayTax: string | null; displayNet: string | null; displayShipping: string | null }>;
    expect(yours.find((o) => o.format === 'audiobook')).toMatchObject({ displayTax: '£2.50', displayNet: '£12.49', displayShipping: null });
    expect(yours.find((o) => o.format === 'hardcover')).toMatchObject({ displayTax: null, displayShipping: '£5.00' });
  });

  it('adds the tax on top when prices exclude it, at the rate of the reader\'s country', async () => {
    expect((await setTax({ pricesIncludeTax: false, defaultRate: 20, rates: [{ country: 'DE', format: 'ebook', rate: 7 }] })).statusCode).toBe(200);
    const { user, agent } = await reader();
    await agent.post('/api/basket/items', { bookId, format: 'ebook' });
    const started = await agent.post('/api/checkout/basket', { billingCountry: 'de' });
    expect(started.statusCode, started.body).toBe(200);
    const sessionId = (started.json().url as string).split('/').pop()!;
    // £9.99 + 7% = £0.70 tax.
    expect((await agent.get(`/api/checkout/sessions/${sessionId}`)).json()).toMatchObject({ amount: 1069, net: 999, tax: 70, displayTax: '£0.70', pricesIncludeTax: false, shipping: 0 });
    expect((await agent.post(`/api/checkout/sessions/${sessionId}/pay`)).statusCode).toBe(200);
    const [receipt] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipt.text).toContain('Subtotal: £9.99\nNet: £9.99\nTax: £0.70\nTotal paid: £10.69\n');
    // Without a country the default rate applies.
    const other = await reader();
    await other.agent.post('/api/basket/items', { bookId, format: 'ebook' });
    const otherId = ((await other.agent.post('/api/checkout/basket', {})).json().url as string).split('/').pop()!;
    expect((await other.agent.get(`/api/checkout/sessions/${otherId}`)).json()).toMatchObject({ amount: 1199, tax: 200 });
  });

  it('shows the shipping, net, tax and total before payment, as the checkout then charges them', async () => {
    expect((await admin.post('/api/admin/shipping-zones', ukZone)).statusCode).toBe(201);
    expect((await admin.post('/api/admin/shipping-zones', { ...ukZone, name: 'Europe', countries: ['FR', 'DE'], firstItem: 800 })).statusCode).toBe(201);
    const rates = [{ country: 'GB', format: 'hardcover', rate: 0 }, { country: 'GB', format: 'ebook', rate: 5 }];
    expect((await setTax({ pricesIncludeTax: true, defaultRate: 20, rates })).statusCode).toBe(200);
    const { agent } = await reader();
    await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 });
    const added = (await agent.post('/api/basket/items', { bookId, format: 'audiobook' })).json();
    const countries = [
      { code: 'FR', name: 'France' },
      { code: 'DE', name: 'Germany' },
      { code: 'GB', name: 'United Kingdom' },
    ];
    // No destination yet: the zones' countries to pick from, no shipping, tax at the default rate.
    expect(added).toMatchObject({
      shipping: { countries, country: null, description: null, amount: 0, free: false, problem: null },
      subtotal: 6497,
      tax: 1082, // (£4.16 x 2 + £2.50) at the default 20%
      total: 6497,
      pricesIncludeTax: true,
      taxAtPayment: false,
    });

    const toUk = await agent.get('/api/basket?shippingCountry=gb');
    expect(toUk.statusCode, toUk.body).toBe(200);
    expect(toUk.json()).toMatchObject({
      shipping: { country: 'GB', description: 'Shipping to United Kingdom', amount: 500, displayAmount: '£5.00', free: false, problem: null },
      net: 6747,
      displayNet: '£67.47',
      tax: 250,
      displayTax: '£2.50',
      total: 6997,
      displayTotal: '£69.97',
    });
    const started = await agent.post('/api/checkout/basket', { shippingCountry: 'GB' });
    const sessionId = (started.json().url as string).split('/').pop()!;
    expect((await agent.get(`/api/checkout/sessions/${sessionId}`)).json()).toMatchObject({ amount: 6997, net: 6747, tax: 250, shipping: 500 });

    // A country outside every zone: the server's message, no shipping, and the checkout refused with it.
    const far = (await agent.get('/api/basket?shippingCountry=US')).json();
    const cannotShip = 'We do not ship printed books to United States. Remove the printed books from your basket or choose another country.';
    expect(far.shipping).toMatchObject({ country: 'US', description: null, amount: 0, problem: cannotShip });
    expect(far.total).toBe(6497);
    expect((await agent.post('/api/checkout/basket', { shippingCountry: 'US' })).json().message).toBe(cannotShip);

    const badCountry = await agent.get('/api/basket?shippingCountry=GBR');
    expect(badCountry.statusCode).toBe(400);
    expect(badCountry.json().message).toBe('Choose the country to ship to (two letters, such as GB)');

    // A visitor's basket is priced the same way.
    const visitor = await new TestAgent(t.app).post('/api/basket/preview', {
      items: [{ bookId, format: 'hardcover', quantity: 2 }, { bookId, format: 'audiobook' }],
      shippingCountry: 'FR',
    });
    expect(visitor.statusCode, visitor.body).toBe(200);
    expect(visitor.json()).toMatchObject({ shipping: { description: 'Shipping to France', amount: 950 }, total: 7447 });
    const visitorBad = await new TestAgent(t.app).post('/api/basket/preview', { items: [], shippingCountry: '1' });
    expect(visitorBad.statusCode).toBe(400);
    expect(visitorBad.json().message).toBe('Choose the country to ship to (two letters, such as GB)');

    // Nothing to ship: no destination is asked for, and a country sent anyway changes nothing (the
    // checkout is not sent one either): the e-book is taxed at the default 20%, not the UK's 5%.
    const { agent: digital } = await reader();
    await digital.post('/api/basket/items', { bookId, format: 'ebook' });
    expect((await digital.get('/api/basket?shippingCountry=GB')).json()).toMatchObject({ shipping: null, total: 999, tax: 166 });
  });

  it('refuses a print basket without a destination, or to a country outside every zone, before any payment', async () => {
    expect((await admin.post('/api/admin/shipping-zones', ukZone)).statusCode).toBe(201);
    const { user, agent } = await reader();
    await agent.post('/api/basket/items', { bookId, format: 'paperback' });
    const none = await agent.post('/api/checkout/basket', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Choose the country to ship your printed books to');
    const far = await agent.post('/api/checkout/basket', { shippingCountry: 'US' });
    expect(far.statusCode).toBe(409);
    expect(far.json()).toMatchObject({
      code: 'SHIPPING_UNAVAILABLE',
      message: 'We do not ship printed books to United States. Remove the printed books from your basket or choose another country.',
    });
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toEqual([]);
  });

  it('ships free from the zone\'s threshold, with no shipping line', async () => {
    expect((await admin.post('/api/admin/shipping-zones', { ...ukZone, freeOver: 4000 })).statusCode).toBe(201);
    const { user, agent } = await reader();
    await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 });
    const started = await agent.post('/api/checkout/basket', { shippingCountry: 'GB' });
    expect(started.statusCode, started.body).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order).toMatchObject({ shipping: 0, total: 4998 });
    expect((await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, order.id))).map((l) => l.kind)).toEqual(['item']);
  });

  it('reports net and tax per quarter, country and rate, adding up to the paid orders, also as CSV', async () => {
    const report = await admin.get('/api/admin/tax/report');
    expect(report.statusCode, report.body).toBe(200);
    const body = report.json();
    const paid = (await t.database.db.select().from(orders)).filter((o) => o.paidAt !== null);
    expect(body.tax).toBe(paid.reduce((sum, o) => sum + o.tax, 0));
    expect(body.net).toBe(paid.reduce((sum, o) => sum + o.total - o.tax, 0));
    const quarter = `${t.clock.now().getUTCFullYear()}-Q${Math.floor(t.clock.now().getUTCMonth() / 3) + 1}`;
    expect(body.rows).toContainEqual({ quarter, country: 'GB', rate: 20, net: 1249, tax: 250, displayNet: '£12.49', displayTax: '£2.50' });
    expect(body.rows).toContainEqual({ quarter, country: 'DE', rate: 7, net: 999, tax: 70, displayNet: '£9.99', displayTax: '£0.70' });
    expect(body.rows).toContainEqual({ quarter, country: 'GB', rate: 0, net: 5498, tax: 0, displayNet: '£54.98', displayTax: '£0.00' });
    expect((await admin.get('/api/admin/tax/report?from=2000-Q1&to=2000-Q4')).json().rows).toEqual([]);
    expect((await admin.get('/api/admin/tax/report?from=2026-13')).json().message).toBe('A quarter looks like 2026-Q4');

    const csv = await admin.get('/api/admin/tax/report.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('"Quarter","Country","Rate (%)","Net","Tax"\r\n');
    expect(csv.body).toContain(`"${quarter}","DE","7","9.99","0.70"\r\n`);
    const { agent: someone } = await reader();
    expect((await someone.get('/api/admin/tax/report.csv')).statusCode).toBe(403);
  });
});
