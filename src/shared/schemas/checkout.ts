/**
 * Checkout schemas (docs/PRODUCT.md, Checkout; API): the checkout request, the formats on sale and the local payment page.
 * One schema validates the request on the server and types the answer on the client.
 */
import { z } from 'zod';
import { PURCHASE_FORMATS } from '../constants';
import { INVALID_FORMAT_MESSAGE, MAX_DB_ID, text } from './common';
import { discountCodeField } from './discounts';
import { giftRequestSchema } from './gifts';

export const purchaseFormatSchema = z.enum(PURCHASE_FORMATS, { message: INVALID_FORMAT_MESSAGE });

/** What a reader is told when a purchase would repeat one they made (issue 25, decision 0066). */
export const REPEAT_PURCHASE_MESSAGES = {
  /** A digital format the reader owns: checkout refuses it before any payment. */
  alreadyOwned: 'Already in your library',
  /** A print format bought within the recent window: checkout asks before a second copy. */
  recent: 'You bought this a moment ago',
} as const;
/** The codes of those refusals, so the client can tell them from other 409s. */
export const REPEAT_PURCHASE_CODES = { alreadyOwned: 'ALREADY_OWNED', recent: 'RECENT_PURCHASE' } as const;
/** How long a completed purchase counts as "a moment ago": as long as a checkout stays payable. */
export const RECENT_PURCHASE_WINDOW_MS = 60 * 60 * 1000;

/** One purchase intent (a click on Buy): its repeats answer the same checkout instead of a new one. */
export const idempotencyKeySchema = text()
  .min(16, 'A valid idempotencyKey is required')
  .max(64, 'A valid idempotencyKey is required')
  .regex(/^[A-Za-z0-9_-]+$/, 'A valid idempotencyKey is required');

// --- checkout -----------------------------------------------------------------------------------

/** POST /api/checkout. There is deliberately no amount: the server prices the order itself. */
export const checkoutRequestSchema = z.object({
  bookId: z.coerce
    .number({ message: 'A valid bookId is required' })
    .int()
    .positive('A valid bookId is required')
    .max(MAX_DB_ID, 'A valid bookId is required'),
  format: purchaseFormatSchema,
  /** Optional, case-insensitive; refused with a message when it does not apply (issue 15). */
  discountCode: discountCodeField,
  /** Buy the format for someone else (digital formats only). */
  gift: giftRequestSchema.optional(),
  /** Sent with every click on Buy; a repeated request with the same key never starts a second payment. */
  idempotencyKey: idempotencyKeySchema.optional(),
  /** The reader confirmed buying another print copy of a format bought a moment ago. */
  confirmRepeat: z.boolean().optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const checkoutResponseSchema = z.object({
  url: text(),
  /** True when the key names a checkout already paid: the url is its confirmation, nothing new started. */
  completed: z.boolean().optional(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** One format card of the purchase section: display content from site settings, price from the server. */
export const storeFormatSchema = z.object({
  id: purchaseFormatSchema,
  title: text(),
  price: z.number().int(),
  currency: text(),
  displayPrice: text(),
  features: z.array(text()),
  buttonText: text(),
  /** Print formats of a book that gives its ebook with print (issue 15). */
  includesEbook: z.boolean().optional(),
  /** The e-book comes with the PDF edition, each with its own download (decision 0066). */
  includesPdf: z.boolean().optional(),
});
export type StoreFormat = z.infer<typeof storeFormatSchema>;

export const storeFormatsResponseSchema = z.object({
  book: z.object({ id: z.number().int(), title: text() }).nullable(),
  formats: z.array(storeFormatSchema),
});
export type StoreFormatsResponse = z.infer<typeof storeFormatsResponseSchema>;

/** The signed-in reader's standing with one format of the book on sale: owned, or bought a moment ago. */
export const myFormatSchema = z.object({
  format: purchaseFormatSchema,
  /** A digital format in the reader's library (print is never "owned": it can be bought again). */
  owned: z.boolean(),
  /** The newest completed purchase of this format within the recent window, for "You bought this a moment ago". */
  recentPurchase: z
    .object({ orderReference: text(), purchasedAt: text(), confirmationPath: text() })
    .nullable(),
});
export type MyFormat = z.infer<typeof myFormatSchema>;
export const myFormatsResponseSchema = z.object({ bookId: z.number().int().nullable(), formats: z.array(myFormatSchema) });
export type MyFormatsResponse = z.infer<typeof myFormatsResponseSchema>;

export const CHECKOUT_STATUSES = ['open', 'completed', 'cancelled', 'expired'] as const;

// --- shipping address (print orders on the local payment page) ------------------------------------

const addressField = (label: string, max: number) =>
  text({ message: `Enter ${label}` })
    .trim()
    .min(1, `Enter ${label}`)
    .max(max, `Keep ${label} under ${max} characters`);

/** Where a hardcover or paperback goes: typed on the local payment page (Stripe collects its own). */
export const shippingAddressSchema = z.object({
  name: addressField('the name to ship to', 100),
  line1: addressField('the first line of the address', 200),
  line2: text().trim().max(200, 'Keep the second line under 200 characters').optional(),
  city: addressField('the town or city', 100),
  postalCode: addressField('the postcode', 20),
  country: addressField('the country', 60),
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/** POST /api/checkout/sessions/{id}/pay: print orders carry the address to ship to. */
export const payRequestSchema = z.object({ shippingAddress: shippingAddressSchema.optional() });

export const SHIPPING_ADDRESS_REQUIRED = 'Enter the address to ship your order to.';

/**
 * An address as an order keeps it: the payment provider's shape (Stripe's shipping details), which the
 * local page writes too, so every order reads the same way.
 */
export function storedAddress(a: ShippingAddress) {
  return {
    name: a.name,
    address: { line1: a.line1, line2: a.line2 || null, city: a.city, postal_code: a.postalCode, country: a.country },
  };
}

/** A stored address as lines to print on a label; empty when there is none. */
export function addressLines(stored: unknown): string[] {
  if (!stored || typeof stored !== 'object') return [];
  const { name, address } = stored as { name?: unknown; address?: Record<string, unknown> | null };
  const part = (v: unknown) => (typeof v === 'string' && v.trim() ? [v.trim()] : []);
  const a = address ?? {};
  const town = [...part(a.city), ...part(a.postal_code)].join(' ');
  return [...part(name), ...part(a.line1), ...part(a.line2), ...part(town), ...part(a.state), ...part(a.country)];
}

/** One line of a basket order, as the payment page and the confirmation show it (decision 0073). */
export const orderLineSchema = z.object({
  id: z.number().int(),
  description: text(),
  format: purchaseFormatSchema,
  quantity: z.number().int(),
  unitPrice: z.number().int(),
  displayUnitPrice: text(),
  amount: z.number().int(),
  displayAmount: text(),
  /** The tax in amount (decision 0080). */
  tax: z.number().int(),
  displayTax: text(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/** What the local payment page shows about one checkout session. */
export const paymentSessionSchema = z.object({
  id: text(),
  status: z.enum(CHECKOUT_STATUSES),
  /** 'local' sessions are paid on our own page; 'stripe' ones only show their confirmation there. */
  provider: z.enum(['local', 'stripe']),
  format: purchaseFormatSchema,
  amount: z.number().int(),
  currency: text(),
  displayPrice: text(),
  digital: z.boolean(),
  expiresAt: text(),
  book: z.object({ id: z.number().int(), title: text(), coverImage: text() }),
  customerEmail: text(),
  orderReference: text().nullable(),
  /** Set when a discount code lowered the price: the list price, shown struck through. */
  originalAmount: z.number().int().nullable().optional(),
  displayOriginalPrice: text().nullable().optional(),
  discountCode: text().nullable().optional(),
  /** A gift: who receives it, and when the claim link is sent (null: as soon as it is paid). */
  gift: z.object({ recipientName: text(), recipientEmail: text(), sendAt: text().nullable() }).nullable().optional(),
  /** A paid print order: where it ships. */
  shippingAddress: z.array(text()).optional(),
  /** The book is not out yet: its release date (ISO). The page says "Pre-order, available on {date}". */
  availableAt: text().nullable().optional(),
  /** A basket checkout: every line it pays for (the book and format above are its first line's). */
  lines: z.array(orderLineSchema).optional(),
  /** A basket checkout's total without its tax, and the tax (decision 0080). */
  net: z.number().int().optional(),
  displayNet: text().optional(),
  tax: z.number().int().optional(),
  displayTax: text().optional(),
  /** true: the prices included the tax; false: it was added on top. */
  pricesIncludeTax: z.boolean().optional(),
  /** The shipping line (decision 0081): its charge (0 when none) and its name ("Shipping to France"). */
  shipping: z.number().int().optional(),
  displayShipping: text().optional(),
  shippingDescription: text().nullable().optional(),
});
export type PaymentSession = z.infer<typeof paymentSessionSchema>;

export const paymentSessionParams = z.object({ sessionId: text().min(1).max(100) });

/** Answer of paying or cancelling on the local payment page: where the browser goes next. */
export const paymentResultSchema = z.object({
  status: z.enum(CHECKOUT_STATUSES),
  redirectTo: text(),
  orderReference: text().nullable(),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;
