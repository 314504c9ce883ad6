import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, orders, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, postStripeWebhook, signStripe, startFakeStripe, stripeCheckoutSession, stripeEnv, stripeEvent } from '../checkout/test-support';

const WEBHOOK_SECRET = 'whsec_test_secret_for_tax';

describe('a basket with shipping and Stripe Tax', () => {
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  let t: TestApp;
  let bookId: number;
  let admin: Awaited<ReturnType<typeof adminAgent>>['agent'];

  beforeAll(async () => {
    let sessions = 0;
    stripe = await startFakeStripe(({ method, url }) => {
      if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_tax_${++sessions}`;
        return { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` };
      }
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

  it('asks Stripe for automatic tax, the billing address, a tax code per format and the shipping option, and stores the tax Stripe computed', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    await agent.post('/api/basket/items', { bookId, format: 'hardcover', quantity: 2 });
    await agent.post('/api/basket/items', { bookId, format: 'audiobook' });
    const res = await agent.post('/api/checkout/basket', { shippingCountry: 'IE' });
    expect(res.statusCode, res.body).toBe(200);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
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

    const completed = (amountTax: number) => {
      const payload = stripeEvent(
        'checkout.session.completed',
        stripeCheckoutSession(
          { id: session.id, providerSessionId: session.providerSessionId! },
          {
            amount_total: session.amount + amountTax,
            total_details: { amount_discount: 0, amount_shipping: 600, amount_tax: amountTax },
            payment_intent: 'pi_tax_1',
            customer_details: { name: 'Ada Reader', email: user.email },
          },
        ),
      );
      return postStripeWebhook(t.app, payload, signStripe(payload, WEBHOOK_SECRET, t.clock.now()));
    };
    expect((await completed(1421)).statusCode).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order).toMatchObject({ tax: 1421, total: session.amount + 1421, pricesIncludeTax: false, shipping: 600 });
    expect(order.paidAt).not.toBeNull();
    const bought = await t.database.db.select().from(purchases).where(eq(purchases.userId, user.id));
    expect(bought.filter((p) => p.kind === 'paid')).toHaveLength(2);

    const report = (await admin.get('/api/admin/tax/report')).json();
    expect(report.rows).toEqual([expect.objectContaining({ country: 'IE', rate: null, net: session.amount, tax: 1421 })]);
  });
});
