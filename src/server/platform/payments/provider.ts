/**
 * The payment port (DESIGN.md "payments"): a provider creates a hosted payment page for a checkout
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
  };
  /** Only set for a provider's "this payment was refunded" notification (Stripe charge.refunded). */
  refund?: {
    paymentId: string | null;
    checkoutId: string | null;
    /** A partial refund made at the provider does not take the purchase back. */
    full: boolean;
  };
}

export interface RefundInput {
  providerSessionId: string;
  /** Known once the checkout was paid; looked up from the session otherwise. */
  paymentId: string | null;
  /** A retried refund (a double click, a timeout) returns the first one instead of refunding twice. */
  idempotencyKey: string;
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
  /** Gives the whole payment back. Providers where no money moved (the local page) have nothing to do. */
  refund?(input: RefundInput): Promise<{ refundId: string }>;
}
