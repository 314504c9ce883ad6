import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, orderLines, orders, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { type StripeRequest, featuredBookId, postStripeWebhook, signStripe, startFakeStripe, stripeCheckoutSession, stripeEnv, stripeEvent } from '../checkout/test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_tax';

describe('a basket with shipping and Stripe Tax', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>['agent'];

  // What the double taxes each line item at, in percent, by its tax code (exclusive prices: on top).
  const RATES: Record<string, number> = { txcd_print_test: 5, txcd_audio_test: 20 };
  // The sessions the double created, by id, as the request that created them; and a session whose
  // line items it answers wrongly (a quantity that is not the order's).
  const created = new Map<string, URLSearchParams>();
  const garbled = new Set<string>();

  /** Stripe's line items of a session, each with the tax the double computed, as GET .../line_items answers them. */
  function lineItemsOf(sessionId: string) {
    const body = created.get(sessionId)!;
    const data = [];
    for (let i = 0; body.has(`line_items[${i}][quantity]`); i++) {
      const at = (field: string) => body.get(`line_items[${i}]${field}`)!;
      const quantity = Number(at('[quantity]')) + (garbled.has(sessionId) ? 1 : 0);
      const subtotal = Number(at('[price_data][unit_amount]')) * quantity;
      const percentage = RATES[at('[price_data][product_data][tax_code]')];
      const tax = Math.round((subtotal * percentage) / 100);
      data.push({
        id: `li_${sessionId}_${i}`,
        object: 'item',
        description: at('[price_data][product_data][name]'),
        quantity,
        amount_subtotal: subtotal,
        amount_discount: 0,
        amount_tax: tax,
        amount_total: subtotal + tax,
        currency: 'gbp',
        taxes: [{ amount: tax, rate: { id: `txr_${percentage}`, object: 'tax_rate', percentage }, taxability_reason: 'standard_rated', taxable_amount: subtotal }],
      });
    }
    return { object: 'list', url: `/v1/checkout/sessions/${sessionId}/line_items`, has_more: false, data };
  }

  beforeAll(async () => {
    let sessions = 0;
    stripe = await startFakeStripe(({ method, url, body }: StripeRequest) => {
      if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_tax_${++sessions}`;
        created.set(id, body);
        return { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` };
      }
      const lineItems = /^\/v1\/checkout\/sessions\/([\w]+)\/line_items$/.exec(url.pathname);
      if (method === 'GET' && lineItems && created.has(lineItems[1])) return lineItemsOf(lineItems[1]);
      return undefined;
    });
    t = await createTestApp({
      env: { ...stripeEnv(stripe.url, WEBHOOK_SECRET), STRIPE_TAX_CODE_PRINT: 'txcd_print_test', STRIPE_TAX_CODE_AUDIOBOOK: 'txcd_audio_test' },
    });
    bookId = await featuredBookId(t.app);
    admin = (await adminAgent(t)).agent;
    expect((await admin.post('/api/admin/shipping-zones', { name: 'Ireland', countries: ['IE'], firstItem: 400, additionalItem: 200, freeOver: null })).statusCode).toBe(201);
    // The table is the local provider's: with Stripe it must not tax anything.
    expect((await admin.put('/api/admin/tax', { pricesIncludeTax: false, defaultRate: 20, rates: [] })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const lineItemRequests = () => stripe.requests.filter((r) => r.method === 'GET' && r.url.pathname.endsWith('/line_items'));

  /** A reader's basket of two hardcovers and the audiobook, shipped to Ireland, checked out on Stripe. */
  async function basketOnStripe() {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 });
    await agent.post('/api/basket/items', { bookId, format: 'audiobook' });
    const res = await agent.post('/api/checkout/basket', { shippingCountry: 'IE' });
    expect(res.statusCode, res.body).toBe(200);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
    return { user, session };
  }

  /** Stripe's checkout.session.completed for it: the tax of the line items, and shipping's own tax. */
  function completed(s: Awaited<ReturnType<typeof basketOnStripe>>, itemsTax: number, shippingTax: number, eventId?: string) {
    const amountTax = itemsTax + shippingTax;
    const payload = stripeEvent(
      'checkout.session.completed',
      stripeCheckoutSession(
        { id: s.session.id, providerSessionId: s.session.providerSessionId! },
        {
          amount_total: s.session.amount + amountTax,
          total_details: { amount_discount: 0, amount_shipping: 600, amount_tax: amountTax },
          shipping_cost: {
            amount_subtotal: 600,
            amount_tax: shippingTax,
            amount_total: 600 + shippingTax,
            shipping_rate: 'shr_test_1',
            taxes: [{ amount: shippingTax, rate: { id: 'txr_20', object: 'tax_rate', percentage: 20 }, taxability_reason: 'standard_rated', taxable_amount: 600 }],
          },
          payment_intent: `pi_${s.session.id}`,
          customer_details: { name: 'Ada Reader', email: s.user.email },
        },
      ),
      eventId,
    );
    return postStripeWebhook(t.app, payload, signStripe(payload, WEBHOOK_SECRET, t.clock.now()));
  }

  const linesOf = async (orderId: number) =>
    (await t.database.db.select().from(orderLines).where(eq(orderLines.orderId, orderId))).sort((a, b) => a.position - b.position);

  it('asks Stripe for automatic tax, the billing address, a tax code per format and the shipping option, and stores the tax of each line Stripe computed', async () => {
    const s = await basketOnStripe();
    const { session } = s;
    const request = stripe.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/v1/checkout/sessions').at(-1)!;
    const body = request.body;
    expect(body.get('automatic_tax[enabled]')).toBe('true');
    expect(body.get('billing_address_collection')).toBe('required');
    expect(body.get('line_items[0][price_data][unit_amount]')).toBe('2499');
    expect(body.get('line_items[0][price_data][tax_behavior]')).toBe('exclusive');
    expect(body.get('line_items[0][price_data][product_data][tax_code]')).toBe('txcd_print_test');
    expect(body.get('line_items[1][price_data][unit_amount]')).toBe('1499');
    expect(body.get('line_items[1][price_data][product_data][tax_code]')).toBe('txcd_audio_test');
    expect(body.get('shipping_options[0][shipping_rate_data][type]')).toBe('fixed_amount');
    expect(body.get('shipping_options[0][shipping_rate_data][display_name]')).toBe('Shipping to Ireland');
    expect(body.get('shipping_options[0][shipping_rate_data][fixed_amount][amount]')).toBe('600');
    expect(body.get('shipping_options[0][shipping_rate_data][fixed_amount][currency]')).toBe('gbp');
    expect(body.get('shipping_options[0][shipping_rate_data][tax_behavior]')).toBe('exclusive');
    expect(body.get('shipping_address_collection[allowed_countries][0]')).toBe('IE');
    // Books and shipping; Stripe adds its tax.
    expect(session.amount).toBe(2 * 2499 + 1499 + 600);

    // The double's line items: two hardcovers at 5% (4998 -> 250), the audiobook at 20% (1499 -> 300);
    // shipping at 20% (600 -> 120).
    const { data: items } = lineItemsOf(session.providerSessionId!);
    expect(items.map((i) => i.amount_tax)).toEqual([250, 300]);
    const eventId = `evt_tax_lines_${session.id}`;
    expect((await completed(s, 250 + 300, 120, eventId)).statusCode).toBe(200);
    const asked = lineItemRequests();
    expect(asked).toHaveLength(1);
    expect(asked[0].url.pathname).toBe(`/v1/checkout/sessions/${session.providerSessionId}/line_items`);
    expect(asked[0].url.searchParams.get('expand[0]')).toBe('data.taxes');

    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, s.user.id));
    const lines = await linesOf(order.id);
    // Each line's tax is the one its line item says, its amount what was charged for it (tax added on top).
    expect(lines.map((l) => [l.kind, l.format, l.quantity, l.tax, l.taxRate, l.amount])).toEqual([
      ['item', 'hardcover', 2, items[0].amount_tax, 500, items[0].amount_total],
      ['item', 'audiobook', 1, items[1].amount_tax, 2000, items[1].amount_total],
      ['shipping', null, 1, 120, 2000, 720],
    ]);
    expect(order).toMatchObject({ tax: 250 + 300 + 120, total: session.amount + 670, pricesIncludeTax: false, shipping: 720 });
    expect(lines.reduce((sum, l) => sum + l.tax, 0)).toBe(order.tax);
    expect(lines.reduce((sum, l) => sum + l.amount, 0)).toBe(order.total);
    expect(order.paidAt).not.toBeNull();
    const bought = await t.database.db.select().from(purchases).where(eq(purchases.userId, s.user.id));
    expect(bought.filter((p) => p.kind === 'paid').map((p) => [p.format, p.price]).sort()).toEqual([
      ['audiobook', 1799],
      ['hardcover', 5248],
    ]);

    // A redelivery changes nothing and asks Stripe nothing.
    expect((await completed(s, 250 + 300, 120, eventId)).statusCode).toBe(200);
    expect(lineItemRequests()).toHaveLength(1);

    // The report splits the order by Stripe's rates, and its sums are the order's.
    const report = (await admin.get('/api/admin/tax/report')).json();
    expect(report.rows).toEqual([
      expect.objectContaining({ country: 'IE', rate: 5, net: 4998, tax: 250, displayNet: '£49.98', displayTax: '£2.50' }),
      expect.objectContaining({ country: 'IE', rate: 20, net: 1499 + 600, tax: 420, displayNet: '£20.99', displayTax: '£4.20' }),
    ]);
    expect(report).toMatchObject({ net: order.total - order.tax, tax: order.tax });
    const csv = (await admin.get('/api/admin/tax/report.csv')).body;
    expect(csv).toContain('"IE","5","49.98","2.50"');
    expect(csv).toContain('"IE","20","20.99","4.20"');
  });

  it("keeps Stripe's tax for the whole order when the session's line items do not match the order's lines", async () => {
    const before = (await admin.get('/api/admin/tax/report')).json();
    const s = await basketOnStripe();
    garbled.add(s.session.providerSessionId!);
    expect((await completed(s, 550, 120)).statusCode).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, s.user.id));
    expect(order).toMatchObject({ tax: 670, total: s.session.amount + 670 });
    expect((await linesOf(order.id)).map((l) => [l.tax, l.taxRate])).toEqual([
      [0, null],
      [0, null],
      [0, null],
    ]);
    // Counted as one amount at the rate "Stripe", beside the rows of the order taxed line by line.
    const report = (await admin.get('/api/admin/tax/report')).json();
    expect(report.rows).toContainEqual(expect.objectContaining({ country: 'IE', rate: null, net: s.session.amount, tax: 670 }));
    expect(report).toMatchObject({ net: before.net + s.session.amount, tax: before.tax + 670 });
  });
});
