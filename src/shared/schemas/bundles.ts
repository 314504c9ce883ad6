/**
 * Bundles (issue 26 point 2, decision 0083): formats of one or more books sold together at one price. A
 * reader who owns part of a bundle pays its price less what they paid for the owned parts.
 */
import { z } from 'zod';
import { PURCHASE_FORMATS } from '../constants';
import { MAX_DB_ID, text } from './common';
import { MIN_CHARGE } from './discounts';
import { basketCheckoutRequestSchema } from './basket';

export const BUNDLE_MESSAGES = {
  name: 'Give the bundle a name of at most 120 characters',
  items: 'A bundle holds at least 2 and at most 12 formats',
  duplicate: 'Each format of a book is in a bundle once',
  bookId: 'A valid bookId is required',
  format: 'Format must be hardcover, paperback, ebook or audiobook',
  price: `The price must be a whole number of pence, at least ${MIN_CHARGE}p`,
  notFound: 'Bundle not found',
} as const;

export const bundleItemSchema = z.object({
  bookId: z.number({ message: BUNDLE_MESSAGES.bookId }).int(BUNDLE_MESSAGES.bookId).positive(BUNDLE_MESSAGES.bookId).max(MAX_DB_ID, BUNDLE_MESSAGES.bookId),
  format: z.enum(PURCHASE_FORMATS, { message: BUNDLE_MESSAGES.format }),
});
export type BundleItem = z.infer<typeof bundleItemSchema>;

/** POST /api/admin/bundles and PUT /api/admin/bundles/{id}. */
export const bundleInputSchema = z
  .object({
    name: text({ message: BUNDLE_MESSAGES.name }).trim().min(1, BUNDLE_MESSAGES.name).max(120, BUNDLE_MESSAGES.name),
    items: z.array(bundleItemSchema, { message: BUNDLE_MESSAGES.items }).min(2, BUNDLE_MESSAGES.items).max(12, BUNDLE_MESSAGES.items),
    price: z.number({ message: BUNDLE_MESSAGES.price }).int(BUNDLE_MESSAGES.price).min(MIN_CHARGE, BUNDLE_MESSAGES.price).max(10_000_000, BUNDLE_MESSAGES.price),
    active: z.boolean().default(true),
  })
  .refine((v) => new Set(v.items.map((i) => `${i.bookId}:${i.format}`)).size === v.items.length, { message: BUNDLE_MESSAGES.duplicate, path: ['items'] });
export type BundleInput = z.input<typeof bundleInputSchema>;

export const bundlePartSchema = z.object({
  bookId: z.number().int(),
  title: text(),
  format: z.enum(PURCHASE_FORMATS),
  formatLabel: text(),
  /** The format's own price now; null when it is not priced on its own. */
  listPrice: z.number().int().nullable(),
  /** The signed-in reader owns this part already (a digital format in their library). */
  owned: z.boolean(),
});

export const adminBundleSchema = z.object({
  id: z.number().int(),
  name: text(),
  price: z.number().int(),
  displayPrice: text(),
  active: z.boolean(),
  items: z.array(bundlePartSchema),
  createdAt: text(),
  updatedAt: text(),
});
export type AdminBundle = z.infer<typeof adminBundleSchema>;
export const adminBundleListSchema = z.array(adminBundleSchema);

/** GET /api/bundles: an active bundle, priced for whoever asks. */
export const bundleSchema = z.object({
  id: z.number().int(),
  name: text(),
  price: z.number().int(),
  displayPrice: text(),
  items: z.array(bundlePartSchema),
  /** What the caller pays: the price less what they paid for the parts they own, never below the minimum charge. */
  yourPrice: z.number().int(),
  displayYourPrice: text(),
  /** "Complete your set: £x" when the caller owns part of it, else null. */
  completeYourSet: text().nullable(),
  /** The caller owns every part: nothing left to buy. */
  ownedWhole: z.boolean(),
  /**
   * "Add the audiobook for £x", for the library: the caller owns the rest and this bundle sells the one
   * missing format for less than its own price; else null.
   */
  addOffer: text().nullable(),
});
export type Bundle = z.infer<typeof bundleSchema>;
export const bundleListSchema = z.object({ bundles: z.array(bundleSchema) });
export type BundleList = z.infer<typeof bundleListSchema>;

/**
 * POST /api/checkout/bundle: the server prices it for the reader; there is no amount in the request. A
 * bundle holding print says where it goes, as the basket's checkout does.
 */
export const bundleCheckoutRequestSchema = basketCheckoutRequestSchema.omit({ discountCode: true }).extend({
  bundleId: z.number({ message: 'A valid bundleId is required' }).int('A valid bundleId is required').positive('A valid bundleId is required').max(MAX_DB_ID, 'A valid bundleId is required'),
});
export type BundleCheckoutRequest = z.infer<typeof bundleCheckoutRequestSchema>;
