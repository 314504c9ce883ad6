import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASKET_MESSAGES } from '@shared/schemas/basket';
import { BUNDLE_MESSAGES } from '@shared/schemas/bundles';
import { SHIPPING_MESSAGES } from '@shared/schemas/shipping';
import { basketItems, checkoutSessions, mailOutbox, orderLines, orders, purchases } from '../../db/schema';
import { type TestAgent, type TestApp, TestAgent as Agent } from '../../test/helpers';
import { buy, clearTaxAndShipping, newReader, storeAppWithAdmin, TEST_ADDRESS } from './test-support';
import { splitByWeight } from './basket-bundles';

interface Line {
  id: number | null;
  title: string;
  formatLabel: string;
  quantity: number;
  unitPrice: number;
  displayUnitPrice: string;
  lineTotal: number;
  problem: string | null;
  bundle: { id: number; parts: Array<{ format: string; owned: boolean }> } | null;
}

describe('a bundle as one line of the basket (decision 0095)', () => {
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
  const bundle = async (formats: string[], price: number, name = 'E-book + audiobook') => {
    const res = await admin.post('/api/admin/bundles', { name, items: formats.map((format) => ({ bookId, format })), price });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };
  const linesOf = async (agent: TestAgent) => (await agent.get('/api/basket')).json().lines as Line[];
  const rowsOf = (userId: number) => t.database.db.select().from(basketItems).where(eq(basketItems.userId, userId));
  const sessionOf = (url: string) => url.split('/').pop()!;

  it('adds a bundle as one line of one at its price, adding it again changes nothing, and it can be removed', async () => {
    const set = await bundle(['ebook', 'audiobook'], 1999);
    const { user, agent } = await reader();
    const added = await agent.post('/api/basket/items', { bundleId: set.id });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ count: 1, subtotal: 1999, total: 1999, displayTotal: '£19.99' });
    const [line] = added.json().lines as Line[];
    expect(line).toMatchObject({ title: 'E-book + audiobook', formatLabel: 'Bundle', quantity: 1, unitPrice: 1999, displayUnitPrice: '£19.99', problem: null });
    expect(line.bundle!.parts.map((p) => [p.format, p.owned])).toEqual([['ebook', false], ['audiobook', false]]);

    expect((await agent.post('/api/basket/items', { bundleId: set.id })).json().count).toBe(1);
    expect(await rowsOf(user.id)).toHaveLength(1);
    const twice = await agent.patch(`/api/basket/items/${line.id}`, { quantity: 2 });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe(BASKET_MESSAGES.bundleQuantity);

    // A format of a book still goes in as before, beside the bundle.
    expect((await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 })).json()).toMatchObject({ count: 3, subtotal: 1999 + 2 * 2499 });
    const removed = await agent.delete(`/api/basket/items/${line.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().lines.map((l: Line) => l.formatLabel)).toEqual(['Hardcover']);
  });

  it('refuses bad input, an unknown or switched-off bundle, and stores nothing', async () => {
    const off = await bundle(['ebook', 'audiobook'], 1999, 'Switched off');
    await admin.put(`/api/admin/bundles/${off.id}`, { name: 'Switched off', items: [{ bookId, format: 'ebook' }, { bookId, format: 'audiobook' }], price: 1999, active: false });
    const { user, agent } = await reader();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ bundleId: 'x' }, 400, BASKET_MESSAGES.bundleId],
      [{ bundleId: 0 }, 400, BASKET_MESSAGES.bundleId],
      [{ bundleId: off.id, bookId, format: 'ebook' }, 400, BASKET_MESSAGES.bundleAlone],
      [{}, 400, BASKET_MESSAGES.bookId],
      [{ bundleId: 987654 }, 404, BUNDLE_MESSAGES.notFound],
      [{ bundleId: off.id }, 404, BUNDLE_MESSAGES.notFound],
    ];
    for (const [body, status, message] of cases) {
      const res = await agent.post('/api/basket/items', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect((await new Agent(t.app).post('/api/basket/items', { bundleId: off.id })).statusCode).toBe(401);
    expect(await rowsOf(user.id)).toEqual([]);
  });

  it('prices the bundle for a reader who owns part of it, and refuses it once they own every part', async () => {
    const set = await bundle(['ebook', 'audiobook'], 1999);
    const { user, agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const [line] = (await agent.post('/api/basket/items', { bundleId: set.id })).json().lines as Line[];
    // £19.99 less the £9.99 paid for the e-book.
    expect(line).toMatchObject({ unitPrice: 1000, displayUnitPrice: '£10.00', lineTotal: 1000, problem: null });
    expect(line.bundle!.parts.map((p) => [p.format, p.owned])).toEqual([['ebook', true], ['audiobook', false]]);

    const { user: owner, agent: ownerAgent } = await reader();
    await buy(ownerAgent, bookId, 'ebook');
    await buy(ownerAgent, bookId, 'audiobook');
    const refused = await ownerAgent.post('/api/basket/items', { bundleId: set.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ALREADY_OWNED', message: 'Every format of this bundle is already in your library' });
    expect(await rowsOf(owner.id)).toEqual([]);

    // Bought on its own since it was added: the line names the bundle, and checkout is refused before any payment.
    await buy(agent, bookId, 'audiobook');
    const [owned] = await linesOf(agent);
    expect(owned.problem).toBe('E-book + audiobook is already in your library');
    const checkout = await agent.post('/api/checkout/basket', {});
    expect(checkout.statusCode).toBe(409);
    expect(checkout.json().message).toBe('E-book + audiobook is already in your library');
    expect((await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).filter((s) => s.status === 'open')).toEqual([]);
  });

  it('names a changed price (a part bought meanwhile), then charges the price the basket shows', async () => {
    const set = await bundle(['ebook', 'audiobook', 'hardcover'], 3999, 'The whole set');
    const { agent } = await reader();
    await agent.post('/api/basket/items', { bundleId: set.id });
    await buy(agent, bookId, 'ebook');
    const [line] = await linesOf(agent);
    expect(line.problem).toBe('The price of The whole set has changed from £39.99 to £30.00');
    const refused = await agent.post('/api/checkout/basket', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The price of The whole set has changed from £39.99 to £30.00. Please check your basket and try again.');
    expect((await linesOf(agent))[0]).toMatchObject({ unitPrice: 3000, problem: null });
  });

  it('refuses a bundle holding a digital format another line of the basket already buys', async () => {
    const set = await bundle(['ebook', 'audiobook'], 1999);
    const { user, agent } = await reader();
    await agent.post('/api/basket/items', { bookId, format: 'ebook' });
    const res = await agent.post('/api/basket/items', { bundleId: set.id });
    expect(res.statusCode).toBe(409);
    const title = (await linesOf(agent))[0].title;
    expect(res.json().message).toBe(`E-book + audiobook holds ${title} (E-Book), which is already in your basket: remove one of them`);
    expect(await rowsOf(user.id)).toHaveLength(1);
  });

  it('a visitor basket holds a bundle at its full price, and it joins the account at sign-in', async () => {
    const set = await bundle(['ebook', 'audiobook'], 1999);
    const preview = await new Agent(t.app).post('/api/basket/preview', { items: [{ bundleId: set.id }, { bookId, format: 'hardcover' }] });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ count: 2, subtotal: 1999 + 2499 });
    expect(preview.json().lines.map((l: Line) => [l.id, l.formatLabel, l.unitPrice])).toEqual([[null, 'Bundle', 1999], [null, 'Hardcover', 2499]]);
  });

  it('checks out a partial owner: one order, the bundle as its part lines at the bundle price less what they paid, fulfilled per part', async () => {
    const set = await bundle(['ebook', 'audiobook'], 1999);
    const { user, agent } = await reader();
    await buy(agent, bookId, 'ebook');
    await agent.post('/api/basket/items', { bundleId: set.id });
    await agent.post('/api/basket/items', { bookId, format: 'paperback' });
    const started = await agent.post('/api/checkout/basket', {});
    expect(started.statusCode, started.body).toBe(200);
    expect((await agent.post('/api/checkout/basket', {})).json().url).toBe(started.json().url);
    const sessionId = sessionOf(started.json().url);
    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    const paperback = (await agent.get('/api/store/formats')).json().formats.find((f: { id: string }) => f.id === 'paperback').price as number;
    expect(page.amount).toBe(1000 + paperback);
    expect(page.lines.map((l: { format: string; amount: number }) => [l.format, l.amount])).toEqual([['audiobook', 1000], ['paperback', paperback]]);

    const paid = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: TEST_ADDRESS });
    expect(paid.statusCode, paid.body).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order).toMatchObject({ subtotal: 1000 + paperback, total: 1000 + paperback });
    const lines = await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(orderLines.position);
    const title = page.lines[0].description.split(': ')[1].replace(' (Audiobook)', '');
    expect(lines.map((l) => [l.description, l.format, l.amount, l.bundleId])).toEqual([
      [`E-book + audiobook: ${title} (Audiobook)`, 'audiobook', 1000, set.id],
      [`${title} (Paperback)`, 'paperback', paperback, null],
    ]);
    const rows = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, user.id), eq(purchases.status, 'completed')));
    expect(rows.find((p) => p.format === 'audiobook')).toMatchObject({ kind: 'paid', price: 1000 });
    // The paperback waits in the shipping queue; the audiobook is in the library; the basket is empty.
    expect(rows.find((p) => p.format === 'paperback')).toMatchObject({ kind: 'paid', quantity: 1 });
    expect(((await agent.get('/api/library/books')).json() as Array<{ format: string }>).map((b) => b.format)).toContain('audiobook');
    expect(await rowsOf(user.id)).toEqual([]);
    // The e-book's own receipt, then the order's, which lists the bundle's part.
    const receipts = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.kind, 'receipt'))).orderBy(mailOutbox.id);
    expect(receipts).toHaveLength(2);
    expect(receipts[1].text).toContain(`E-book + audiobook: ${title} (Audiobook)`);
  });

  it('charges tax and shipping on a bundle holding print, part by part', async () => {
    await admin.post('/api/admin/shipping-zones', { name: 'United Kingdom', countries: ['GB'], firstItem: 350, additionalItem: 150, freeOver: null });
    await admin.put('/api/admin/tax', { pricesIncludeTax: true, defaultRate: 20, rates: [{ country: 'GB', format: 'hardcover', rate: 0 }] });
    // £24.99 and £14.99 of £39.98: the £30.00 is shared 1876 and 1124 (the leftover penny on the first).
    expect(splitByWeight(3000, [2499, 1499])).toEqual([1876, 1124]);
    const set = await bundle(['hardcover', 'audiobook'], 3000, 'Hardcover + audiobook');
    const { user, agent } = await reader();
    await agent.post('/api/basket/items', { bundleId: set.id });
    const noCountry = await agent.post('/api/checkout/basket', {});
    expect(noCountry.statusCode).toBe(400);
    const started = await agent.post('/api/checkout/basket', { shippingCountry: 'GB' });
    expect(started.statusCode, started.body).toBe(200);
    const page = (await agent.get(`/api/checkout/sessions/${sessionOf(started.json().url)}`)).json();
    // The audiobook's share carries 20% inside it (187p); the hardcover and its shipping 0%.
    expect(page).toMatchObject({ amount: 3000 + 350, tax: 187, shipping: 350, shippingDescription: 'Shipping to United Kingdom' });
    expect(page.lines.map((l: { format: string; amount: number; tax: number }) => [l.format, l.amount, l.tax])).toEqual([
      ['hardcover', 1876, 0],
      ['audiobook', 1124, 187],
    ]);
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, user.id))).toHaveLength(1);
  });

  it('the direct bundle checkout is the same order through the same path, with tax and shipping', async () => {
    await admin.post('/api/admin/shipping-zones', { name: 'United Kingdom', countries: ['GB'], firstItem: 350, additionalItem: 150, freeOver: null });
    const set = await bundle(['hardcover', 'audiobook'], 3000, 'Hardcover + audiobook');
    const { agent } = await reader();
    const refused = await agent.post('/api/checkout/bundle', { bundleId: set.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(SHIPPING_MESSAGES.chooseCountry);
    const started = await agent.post('/api/checkout/bundle', { bundleId: set.id, shippingCountry: 'gb' });
    expect(started.statusCode, started.body).toBe(200);
    const page = (await agent.get(`/api/checkout/sessions/${sessionOf(started.json().url)}`)).json();
    expect(page).toMatchObject({ amount: 3350, shipping: 350 });
    expect(page.lines.map((l: { format: string; amount: number }) => [l.format, l.amount])).toEqual([['hardcover', 1876], ['audiobook', 1124]]);
  });
});
