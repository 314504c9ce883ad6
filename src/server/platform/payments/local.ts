import type { Random } from '../security/crypto';
import {
  type CreatePaymentInput,
  type CreatedPayment,
  InvalidSignatureError,
  type PaymentEvent,
  type PaymentProvider,
  type RefundInput,
} from './provider';

/**
 * The built-in test payment page at /pay/{id}. No money moves: it exists for development and demos, and a
 * production start refuses it unless the operator sets ALLOW_TEST_PAYMENTS (config.ts).
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local' as const;

  constructor(private readonly random: Random) {}

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    // Relative, so the page opens on whatever host the visitor is using.
    return { providerSessionId: `local_${input.checkoutId}`, url: `/pay/${encodeURIComponent(input.checkoutId)}` };
  }

  /** No money moved on the local page, so there is nothing to give back; the refund is only recorded. */
  async refund(input: RefundInput): Promise<{ refundId: string }> {
    return { refundId: `local_refund_${input.providerSessionId}` };
  }

  /** The local page has no webhook: its "Pay" button builds the event in-process (see `paymentEvent`). */
  parseWebhook(): PaymentEvent {
    throw new InvalidSignatureError('The local payment provider does not accept webhooks');
  }

  /** The event the local page's "Pay" produces: the same shape a Stripe webhook becomes. */
  paymentEvent(session: {
    id: string;
    providerSessionId: string | null;
    amount: number;
    currency: string;
    customerName: string;
    customerEmail: string;
    /** Print orders: where to ship, in the provider's shape (Stripe's shipping details). */
    shippingAddress?: unknown;
  }): PaymentEvent {
    return {
      id: `local_evt_${this.random.token(18)}`,
      type: 'checkout.session.completed',
      completion: {
        checkoutId: session.id,
        providerSessionId: session.providerSessionId ?? `local_${session.id}`,
        paid: true,
        amount: session.amount,
        currency: session.currency,
        customerName: session.customerName,
        customerEmail: session.customerEmail,
        shippingAddress: session.shippingAddress ?? null,
      },
    };
  }
}
