import Stripe from 'stripe';
import type { Clock } from '../security/crypto';
import {
  type CreatePaymentInput,
  type CreatedPayment,
  InvalidSignatureError,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderLineTax,
  type RefundInput,
} from './provider';

/** Stripe signs each webhook with a timestamp; older (or further in the future) than this is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Countries a hardcover or paperback may be shipped to. */
const SHIPPING_COUNTRIES: Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry[] = [
  'GB',
  'IE',
  'US',
  'CA',
  'AU',
  'NZ',
  'FR',
  'DE',
  'NL',
  'ES',
  'IT',
];

type AllowedCountry = (typeof SHIPPING_COUNTRIES)[number];

/** The country the reader chose, when Stripe ships there; every shipping country otherwise. */
const allowedCountries = (chosen: string | null | undefined): AllowedCountry[] =>
  chosen && (SHIPPING_COUNTRIES as string[]).includes(chosen) ? [chosen as AllowedCountry] : SHIPPING_COUNTRIES;

const COMPLETION_TYPES = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** Stripe Checkout Sessions created server-side, fulfilled by signed webhooks. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string,
    private readonly clock: Clock,
    /** Another API base (STRIPE_API_URL), e.g. a local double in tests; Stripe's own API when unset. */
    apiUrl?: string,
    /** Stripe Tax product tax code per format (decision 0080); a format without one gets the account's preset. */
    private readonly taxCodes: Partial<Record<string, string | undefined>> = {},
  ) {
    const base = apiUrl ? new URL(apiUrl) : null;
    this.stripe = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
            protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
          }
        : {}),
    });
  }

  /** Completed Checkout Sessions created since `since`, newest first, as the events a webhook would carry. */
  async *listPaidCheckouts(since: Date): AsyncIterable<PaymentEvent> {
    const sessions = this.stripe.checkout.sessions.list({
      created: { gte: Math.floor(since.getTime() / 1000) },
      status: 'complete',
      limit: 100,
    });
    for await (const session of sessions) {
      if (session.payment_status !== 'paid') continue;
      // A stable id per session: the reconciliation records it once, like a webhook delivery.
      yield toPaymentEvent({
        id: `reconcile_${session.id}`,
        type: 'checkout.session.completed',
        data: { object: session },
      } as unknown as Stripe.Event);
    }
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const tax = input.automaticTax ?? null;
    const behaviour = tax?.pricesIncludeTax ? ('inclusive' as const) : ('exclusive' as const);
    const metadata = {
      checkoutId: input.checkoutId,
      userId: String(input.userId),
      bookId: String(input.bookId),
      format: input.format,
    };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: input.checkoutId,
        customer_email: input.customerEmail,
        line_items: (input.lineItems ?? [{ name: input.productName, unitAmount: input.amount, quantity: 1 }]).map((line) => {
          const taxCode = tax && line.format ? this.taxCodes[line.format] : undefined;
          return {
            quantity: line.quantity,
            price_data: {
              currency: input.currency.toLowerCase(),
              unit_amount: line.unitAmount,
              product_data: { name: line.name, ...(taxCode ? { tax_code: taxCode } : {}) },
              ...(tax ? { tax_behavior: behaviour } : {}),
            },
          };
        }),
        metadata,
        payment_intent_data: { metadata },
        shipping_address_collection: input.collectShipping ? { allowed_countries: allowedCountries(input.shippingCountry) } : undefined,
        // Stripe Tax: the tax comes from Stripe, on the billing address it collects (decision 0080).
        ...(tax ? { automatic_tax: { enabled: true }, billing_address_collection: 'required' as const } : {}),
        // A basket's shipping line is Stripe's shipping option, taxed by Stripe like the goods (decision 0081).
        ...(input.shippingOption
          ? {
              shipping_options: [
                {
                  shipping_rate_data: {
                    type: 'fixed_amount' as const,
                    display_name: input.shippingOption.name,
                    fixed_amount: { amount: input.shippingOption.amount, currency: input.currency.toLowerCase() },
                    ...(tax ? { tax_behavior: behaviour } : {}),
                  },
                },
              ],
            }
          : {}),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      },
      // A retried create returns the same session instead of a second one.
      { idempotencyKey: `checkout-${input.checkoutId}` },
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return { providerSessionId: session.id, url: session.url };
  }

  async refund(input: RefundInput): Promise<{ refundId: string }> {
    let paymentIntent = input.paymentId;
    if (!paymentIntent) {
      const session = await this.stripe.checkout.sessions.retrieve(input.providerSessionId);
      paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    }
    if (!paymentIntent) throw new Error(`Stripe checkout session ${input.providerSessionId} has no payment to refund`);
    const refund = await this.stripe.refunds.create(
      { payment_intent: paymentIntent, ...(input.amount !== undefined ? { amount: input.amount } : {}) },
      { idempotencyKey: input.idempotencyKey },
    );
    return { refundId: refund.id };
  }

  async lineTaxes(providerSessionId: string): Promise<ProviderLineTax[]> {
    const lines: ProviderLineTax[] = [];
    // Stripe lists a session's line items in the order the session was created with.
    for await (const item of this.stripe.checkout.sessions.listLineItems(providerSessionId, { limit: 100, expand: ['data.taxes'] })) {
      lines.push({
        description: item.description ?? '',
        quantity: item.quantity ?? 1,
        amountTotal: item.amount_total,
        amountTax: item.amount_tax,
        rate: rateOf(item.taxes),
      });
    }
    return lines;
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent {
    if (!signature) throw new InvalidSignatureError('Missing Stripe-Signature header');
    const nowMs = this.clock.now().getTime();
    // The SDK refuses stale timestamps; a timestamp from the future is refused here too.
    const timestamp = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
    if (!Number.isFinite(timestamp) || timestamp - nowMs / 1000 > WEBHOOK_TOLERANCE_SECONDS) {
      throw new InvalidSignatureError('Webhook timestamp outside the tolerance zone');
    }
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        nowMs,
      );
    } catch (error) {
      throw new InvalidSignatureError((error as Error).message.split('\n')[0]);
    }
    return toPaymentEvent(event);
  }
}

/** The rate Stripe applied, in hundredths of a percent: the sum of a line's taxes (a state's and a county's). */
function rateOf(taxes: ReadonlyArray<{ rate?: { percentage?: number | null } | null }> | null | undefined): number | null {
  if (!taxes || taxes.length === 0) return null;
  const percentages = taxes.map((t) => t.rate?.percentage);
  if (percentages.some((p) => typeof p !== 'number')) return null;
  return Math.round((percentages as number[]).reduce((sum, p) => sum + p, 0) * 100);
}

const paymentIdOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    return {
      id: event.id,
      type: event.type,
      refund: {
        paymentId: paymentIdOf(charge.payment_intent),
        checkoutId: charge.metadata?.checkoutId ?? null,
        full: charge.refunded === true,
        amountRefunded: typeof charge.amount_refunded === 'number' ? charge.amount_refunded : null,
      },
    };
  }
  if (!COMPLETION_TYPES.has(event.type)) return { id: event.id, type: event.type };
  const session = event.data.object as Stripe.Checkout.Session;
  const shipping = (session as { collected_information?: { shipping_details?: unknown } }).collected_information
    ?.shipping_details;
  return {
    id: event.id,
    type: event.type,
    completion: {
      checkoutId: session.metadata?.checkoutId ?? session.client_reference_id ?? null,
      providerSessionId: session.id,
      // 'no_payment_required' never happens for a priced book; only money received fulfils.
      paid: session.payment_status === 'paid',
      amount: session.amount_total ?? null,
      currency: session.currency ?? null,
      customerName: session.customer_details?.name ?? null,
      customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
      shippingAddress: shipping ?? null,
      paymentId: paymentIdOf(session.payment_intent),
      taxAmount: session.total_details?.amount_tax ?? null,
      shippingTax: session.shipping_cost ? { amount: session.shipping_cost.amount_tax, rate: rateOf(session.shipping_cost.taxes) } : null,
    },
  };
}
