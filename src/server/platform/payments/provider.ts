/**
 * The payment port (docs/ARCHITECTURE.md; decision 0001): a provider creates a hosted payment page for a checkout
 * session and, for providers that call back, turns a signed notification into a PaymentEvent. Both
 * adapters feed the same fulfilment code, so the local test page cannot grant more than Stripe would.
 */

export interface CreatePaymentInput {
  /** Our checkout_sessions id; providers echo it back so the event finds its session. */
  checkoutId: string;
  userId: number;
  bookId: number;
  format: string;
  /** Minor units, decided by the server's price table. */
  amount: number;
  currency: string;
  productName: string;
  customerEmail: string;
  /** Hardcover and paperback are shipped: the provider collects an address. */
  collectShipping: boolean;
  /** Where the reader said the print lines go (ISO 3166-1 alpha-2): the only country the page offers. */
  shippingCountry?: string | null;
  /**
   * A basket's lines, each charged as unit amount times quantity; they add up to `amount`. Without them
   * the payment is the one line `productName` at `amount`.
   */
  lineItems?: Array<{ name: string; unitAmount: number; quantity: number; format?: string }>;
  /** Shipping as its own charge (a basket's shipping line); Stripe shows it as the shipping option. */
  shippingOption?: { name: string; amount: number } | null;
  /**
   * The provider computes the tax (Stripe Tax, decision 0080): prices are tax-inclusive or the tax is
   * added on top. Null: the amounts already carry the tax from the author's table, if any.
   */
  automaticTax?: { pricesIncludeTax: boolean } | null;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export interface CreatedPayment {
  providerSessionId: string;
  /** Where the browser goes to pay. */
  url: string;
}

/** A provider's "this checkout was paid" notification, normalised. */
export interface PaymentEvent {
  /** Unique per notification; a redelivery carries the same id. */
  id: string;
  type: string;
  /** Only set for events that complete a checkout. */
  completion?: {
    checkoutId: string | null;
    providerSessionId: string;
    paid: boolean;
    amount: number | null;
    currency: string | null;
    customerName: string | null;
    customerEmail: string | null;
    shippingAddress: unknown;
    /** The provider's payment behind the checkout (Stripe PaymentIntent), for refunds. */
    paymentId?: string | null;
    /** The tax the provider computed (Stripe Tax), in minor units; null when it computed none. */
    taxAmount?: number | null;
    /** The part of that tax on the shipping option, and its rate, when the provider says. */
    shippingTax?: { amount: number; rate: number | null } | null;
  };
  /** Only set for a provider's "this payment was refunded" notification (Stripe charge.refunded). */
  refund?: {
    paymentId: string | null;
    checkoutId: string | null;
    /** The whole payment was refunded: everything it bought is taken back. */
    full: boolean;
    /** How much of the payment has been refunded in all so far (minor units), when the provider says. */
    amountRefunded?: number | null;
  };
}

export interface RefundInput {
  providerSessionId: string;
  /** Known once the checkout was paid; looked up from the session otherwise. */
  paymentId: string | null;
  /** A retried refund (a double click, a timeout) returns the first one instead of refunding twice. */
  idempotencyKey: string;
  /** Part of the payment (one line of an order), in minor units; the whole payment when absent. */
  amount?: number;
}

/** One line item of a paid checkout with the tax the provider computed for it (Stripe Tax, decision 0080). */
export interface ProviderLineTax {
  description: string;
  quantity: number;
  /** What the line was charged, its tax included. */
  amountTotal: number;
  amountTax: number;
  /** The rate in hundredths of a percent (2000 = 20%); null when the provider names none. */
  rate: number | null;
}

export class InvalidSignatureError extends Error {
  constructor(message = 'Invalid webhook signature') {
    super(message);
    this.name = 'InvalidSignatureError';
  }
}

export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Verifies a webhook on its exact raw bytes; throws InvalidSignatureError when it is not genuine. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent;
  /**
   * Checkouts the provider saw paid since `since`, as completion events (for the reconciliation that
   * fulfils any whose webhook was lost). Providers without webhooks have nothing to reconcile.
   */
  listPaidCheckouts?(since: Date): AsyncIterable<PaymentEvent>;
  /** Gives the payment, or `amount` of it, back. Providers where no money moved (the local page) have nothing to do. */
  refund?(input: RefundInput): Promise<{ refundId: string }>;
  /** The line items of a paid checkout, in the order they were sent, each with its tax (providers that compute tax). */
  lineTaxes?(providerSessionId: string): Promise<ProviderLineTax[]>;
}
