/**
 * Discount codes (issue 15): the admin's create/edit body, the code as the admin list shows it, and the
 * price a code gives at checkout. One schema validates on the server and types the admin form.
 */
import { z } from 'zod';
import { PURCHASE_FORMATS } from '../constants';
import { isoDateTime, text } from './common';
import { cursorParam, nextCursorSchema, pageLimitParam } from './pages';

/** Stripe refuses smaller GBP charges, so a discount never takes a price below this (decision 0050). */
export const MIN_CHARGE = 30;

export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;
export const DISCOUNT_MESSAGES = {
  codeRequired: 'Code is required',
  codeFormat: 'Code may contain letters, numbers, dashes and underscores only',
  valueRequired: 'Give either a percentage off or an amount off',
  valueBoth: 'Give a percentage off or an amount off, not both',
  percentRange: 'Percentage off must be a whole number from 1 to 100',
  amountRange: 'Amount off must be a whole number of pence, at least 1',
  maxRange: 'Maximum uses must be a whole number of at least 1',
  formatsEmpty: 'Choose at least one format, or leave formats out for all',
  expiry: 'Expiry must be a date and time',
  expiryPast: 'This expiry date has already passed. Choose a later date, or leave it empty for a code that never expires.',
  duplicate: 'A discount code with this code already exists',
} as const;

/** Refusals at checkout: the reader sees exactly these. */
export const DISCOUNT_REFUSALS = {
  unknown: 'This discount code does not exist',
  inactive: 'This discount code is no longer active',
  expired: 'This discount code has expired',
  exhausted: 'This discount code has been used up',
  inapplicable: (format: string) => `This discount code does not apply to the ${format}`,
  ranOut: 'This discount code was used up before your payment. Nothing was charged: please start your purchase again.',
} as const;

const optionalInt = (message: string, min: number, max: number) =>
  z
    .number({ message })
    .int(message)
    .min(min, message)
    .max(max, message)
    .nullable()
    .optional();

export const discountInputSchema = z
  .object({
    code: text({ message: DISCOUNT_MESSAGES.codeRequired })
      .trim()
      .min(1, DISCOUNT_MESSAGES.codeRequired)
      .max(40, 'Code must be at most 40 characters')
      .regex(DISCOUNT_CODE_PATTERN, DISCOUNT_MESSAGES.codeFormat),
    percentOff: optionalInt(DISCOUNT_MESSAGES.percentRange, 1, 100),
    amountOff: optionalInt(DISCOUNT_MESSAGES.amountRange, 1, 1_000_000),
    formats: z
      .array(z.enum(PURCHASE_FORMATS, { message: 'Invalid format specified' }))
      .min(1, DISCOUNT_MESSAGES.formatsEmpty)
      .nullable()
      .optional(),
    expiresAt: isoDateTime(DISCOUNT_MESSAGES.expiry).nullable().optional(),
    maxRedemptions: optionalInt(DISCOUNT_MESSAGES.maxRange, 1, 1_000_000),
    active: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    const hasPercent = value.percentOff != null;
    const hasAmount = value.amountOff != null;
    if (hasPercent && hasAmount) ctx.addIssue({ code: 'custom', path: ['percentOff'], message: DISCOUNT_MESSAGES.valueBoth });
    if (!hasPercent && !hasAmount) ctx.addIssue({ code: 'custom', path: ['percentOff'], message: DISCOUNT_MESSAGES.valueRequired });
  });
export type DiscountInput = z.input<typeof discountInputSchema>;

export const discountSchema = z.object({
  id: z.number().int(),
  code: text(),
  percentOff: z.number().int().nullable(),
  amountOff: z.number().int().nullable(),
  formats: z.array(z.enum(PURCHASE_FORMATS)).nullable(),
  expiresAt: text().nullable(),
  maxRedemptions: z.number().int().nullable(),
  redemptions: z.number().int(),
  active: z.boolean(),
  createdAt: text(),
});
export type Discount = z.infer<typeof discountSchema>;
export const DISCOUNTS_PAGE_SIZE = 100;
/** A code's cursor carries a code, so another list's cursor (a time) is refused at the edge. */
export const discountQuerySchema = z.object({ after: cursorParam(DISCOUNT_CODE_PATTERN).optional(), limit: pageLimitParam(DISCOUNTS_PAGE_SIZE) });
/** By code, one keyset page at a time (decision 0071). */
export const discountPageSchema = z.object({ items: z.array(discountSchema), nextCursor: nextCursorSchema });
export type DiscountPage = z.infer<typeof discountPageSchema>;

/** The checkout body's optional code: blank means none. */
export const discountCodeField = text()
  .trim()
  .max(40, DISCOUNT_REFUSALS.unknown)
  .optional()
  .transform((v) => (v ? v : undefined));

/** GET /api/checkout/quote: what a format costs with a code, before the checkout is started. */
export const quoteQuerySchema = z.object({
  bookId: z.coerce.number().int().positive().max(2_147_483_647),
  format: z.enum(PURCHASE_FORMATS, { message: 'Invalid format specified' }),
  discountCode: discountCodeField,
});
export const quoteSchema = z.object({
  amount: z.number().int(),
  displayPrice: text(),
  originalAmount: z.number().int(),
  displayOriginalPrice: text(),
  discountCode: text().nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** A discount in words, for the admin list: "20% off" or "£5.00 off". */
export function describeDiscount(d: { percentOff: number | null; amountOff: number | null }): string {
  if (d.percentOff != null) return `${d.percentOff}% off`;
  return `£${((d.amountOff ?? 0) / 100).toFixed(2)} off`;
}

/** The price to pay: the discount taken off, never below MIN_CHARGE (nor above the list price). */
export function discountedPrice(price: number, d: { percentOff: number | null; amountOff: number | null }): number {
  const off = d.percentOff != null ? Math.round((price * d.percentOff) / 100) : (d.amountOff ?? 0);
  return Math.min(price, Math.max(MIN_CHARGE, price - off));
}
