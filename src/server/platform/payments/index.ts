import type { Config } from '../../config';
import type { Clock, Random } from '../security/crypto';
import { LocalPaymentProvider } from './local';
import type { PaymentProvider } from './provider';
import { StripePaymentProvider } from './stripe';

export * from './provider';
export { LocalPaymentProvider } from './local';
export { StripePaymentProvider, WEBHOOK_TOLERANCE_SECONDS } from './stripe';

/** The configured provider; config.ts has already refused `local` in production unless allowed. */
export function createPaymentProvider(config: Config, clock: Clock, random: Random): PaymentProvider {
  if (config.paymentProvider === 'stripe') {
    if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) {
      throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    }
    return new StripePaymentProvider(config.STRIPE_SECRET_KEY, config.STRIPE_WEBHOOK_SECRET, clock, config.STRIPE_API_URL, {
      hardcover: config.STRIPE_TAX_CODE_PRINT,
      paperback: config.STRIPE_TAX_CODE_PRINT,
      ebook: config.STRIPE_TAX_CODE_EBOOK,
      audiobook: config.STRIPE_TAX_CODE_AUDIOBOOK,
    });
  }
  return new LocalPaymentProvider(random);
}
