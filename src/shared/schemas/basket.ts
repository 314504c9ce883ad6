/**
 * The basket (issue 26 point 1, decision 0073): lines of formats with quantities, priced by the server,
 * paid in one checkout that becomes one order with lines.
 */
import { z } from 'zod';
import { isDigitalFormat } from '../constants';
import { INVALID_FORMAT_MESSAGE, MAX_DB_ID, text } from './common';
import { purchaseFormatSchema } from './checkout';
import { discountCodeField } from './discounts';

/** Copies of one print format in one basket; a digital format is always one. */
export const MAX_PRINT_QUANTITY = 10;
export const BASKET_MESSAGES = {
  quantity: `Choose a quantity from 1 to ${MAX_PRINT_QUANTITY}`,
  digitalQuantity: 'A digital format is bought once: its quantity is 1',
  empty: 'Your basket is empty',
  itemNotFound: 'This item is not in your basket',
  bookId: 'A valid bookId is required',
  country: 'Choose the country to ship to (two letters, such as GB)',
  billingCountry: 'Choose the country you live in (two letters, such as GB)',
  bundleId: 'A valid bundleId is required',
  bundleAlone: 'A bundle is added on its own: send only its bundleId',
  bundleQuantity: 'A bundle is bought once: its quantity is 1',
} as const;

const quantityField = z.coerce
  .number({ message: BASKET_MESSAGES.quantity })
  .int(BASKET_MESSAGES.quantity)
  .min(1, BASKET_MESSAGES.quantity)
  .max(MAX_PRINT_QUANTITY, BASKET_MESSAGES.quantity);

const bookIdField = z.coerce
  .number({ message: BASKET_MESSAGES.bookId })
  .int(BASKET_MESSAGES.bookId)
  .positive(BASKET_MESSAGES.bookId)
  .max(MAX_DB_ID, BASKET_MESSAGES.bookId);

const bundleIdField = z.coerce
  .number({ message: BASKET_MESSAGES.bundleId })
  .int(BASKET_MESSAGES.bundleId)
  .positive(BASKET_MESSAGES.bundleId)
  .max(MAX_DB_ID, BASKET_MESSAGES.bundleId);

/** A format of a book, with a quantity for print (default 1). */
export interface FormatItemRequest {
  bookId: number;
  format: z.infer<typeof purchaseFormatSchema>;
  quantity?: number;
}
/** A bundle (decision 0083), always one line of one. */
export interface BundleItemRequest {
  bundleId: number;
}

/**
 * POST /api/basket/items: `{ bookId, format, quantity? }` or `{ bundleId }`. One object rather than a union,
 * so a refusal names the field that is wrong instead of "Invalid input".
 */
export const basketItemRequestSchema = z
  .object({
    bookId: bookIdField.optional(),
    format: purchaseFormatSchema.optional(),
    quantity: quantityField.optional(),
    bundleId: bundleIdField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.bundleId !== undefined) {
      if (v.bookId !== undefined || v.format !== undefined || v.quantity !== undefined) {
        ctx.addIssue({ code: 'custom', message: BASKET_MESSAGES.bundleAlone, path: ['bundleId'] });
      }
      return;
    }
    if (v.bookId === undefined) ctx.addIssue({ code: 'custom', message: BASKET_MESSAGES.bookId, path: ['bookId'] });
    if (v.format === undefined) ctx.addIssue({ code: 'custom', message: INVALID_FORMAT_MESSAGE, path: ['format'] });
    else if (isDigitalFormat(v.format) && (v.quantity ?? 1) !== 1) {
      ctx.addIssue({ code: 'custom', message: BASKET_MESSAGES.digitalQuantity, path: ['quantity'] });
    }
  })
  .transform((v): FormatItemRequest | BundleItemRequest =>
    v.bundleId !== undefined ? { bundleId: v.bundleId } : { bookId: v.bookId!, format: v.format!, quantity: v.quantity },
  );
export type BasketItemRequest = FormatItemRequest | BundleItemRequest;
export const isBundleRequest = (item: BasketItemRequest): item is BundleItemRequest => 'bundleId' in item;

/** PATCH /api/basket/items/{id}. */
export const basketQuantityRequestSchema = z.object({ quantity: quantityField });
export const basketItemParams = z.object({
  id: z.coerce.number().int().positive(BASKET_MESSAGES.itemNotFound).max(MAX_DB_ID, BASKET_MESSAGES.itemNotFound),
});

/** A country as two letters (ISO 3166-1 alpha-2), in capitals whatever the reader typed. */
const countryCode = (message: string) =>
  text()
    .trim()
    .regex(/^[A-Za-z]{2}$/, message)
    .transform((v) => v.toUpperCase());

/**
 * GET /api/basket?discountCode=&shippingCountry=: the totals with the code the reader typed in the
 * basket's box, and the shipping and tax to the destination they picked.
 */
export const basketQuerySchema = z.object({ discountCode: discountCodeField, shippingCountry: countryCode(BASKET_MESSAGES.country).optional() });

/** POST /api/basket/preview: a visitor's basket, kept in the browser, priced by the server. */
export const basketPreviewRequestSchema = z.object({
  items: z.array(basketItemRequestSchema).max(40, 'A basket holds at most 40 lines'),
  shippingCountry: countryCode(BASKET_MESSAGES.country).optional(),
});

/** A format a bundle line holds, and whether the reader owns it already (it is then not charged again). */
export const basketBundlePartSchema = z.object({
  bookId: z.number().int(),
  title: text(),
  format: purchaseFormatSchema,
  formatLabel: text(),
  owned: z.boolean(),
});

export const basketLineSchema = z.object({
  /** The basket item's id; null for a line of a visitor's basket, which lives in the browser. */
  id: z.number().int().nullable(),
  /** A format's line: its book (a bundle line: its first part's book, whose cover it shows). */
  bookId: z.number().int(),
  /** The book's title, or the bundle's name. */
  title: text(),
  coverImage: text(),
  /** A format's line: its format; a bundle line: its first part's (see bundle). */
  format: purchaseFormatSchema,
  /** "Bundle" for a bundle line. */
  formatLabel: text(),
  /** A bundle line (decision 0095): the bundle and its parts, priced as one line at the reader's price. */
  bundle: z.object({ id: z.number().int(), parts: z.array(basketBundlePartSchema) }).nullable(),
  digital: z.boolean(),
  quantity: z.number().int(),
  unitPrice: z.number().int(),
  displayUnitPrice: text(),
  lineTotal: z.number().int(),
  displayLineTotal: text(),
  /** Why the line cannot be bought as it stands (gone from sale, price changed, owned); null when it can. */
  problem: text().nullable(),
});
export type BasketLine = z.infer<typeof basketLineSchema>;

/** Where a basket holding print can ship, and what shipping to the chosen country costs (decision 0081). */
export const basketShippingSchema = z.object({
  /** The countries of the author's zones, by name, for the destination picker. */
  countries: z.array(z.object({ code: text(), name: text() })),
  /** The destination asked for; null until the reader picks one. */
  country: text().nullable(),
  /** "Shipping to France", once a country in a zone is picked. */
  description: text().nullable(),
  /** What shipping adds (0 until a country is picked, or when it ships free). */
  amount: z.number().int(),
  displayAmount: text(),
  /** The zone's free-shipping threshold was reached. */
  free: z.boolean(),
  /** Why the basket cannot ship there ("We do not ship printed books to …"); Checkout is refused with it. */
  problem: text().nullable(),
});
export type BasketShipping = z.infer<typeof basketShippingSchema>;

export const basketSchema = z.object({
  lines: z.array(basketLineSchema),
  /** Copies in the basket: the header's count. */
  count: z.number().int(),
  currency: text(),
  subtotal: z.number().int(),
  displaySubtotal: text(),
  /** What the code takes off (0 without one). */
  discount: z.number().int(),
  displayDiscount: text(),
  discountCode: text().nullable(),
  /**
   * Null when nothing needs a destination: no print in the basket, or no zones set (print then ships free
   * anywhere, as before zones existed).
   */
  shipping: basketShippingSchema.nullable(),
  /** What the checkout would charge, split as the receipt splits it (decision 0080). */
  net: z.number().int(),
  displayNet: text(),
  tax: z.number().int(),
  displayTax: text(),
  /** true: the prices include the tax (it is shown as "Tax included"); false: it is added on top. */
  pricesIncludeTax: z.boolean(),
  /** With Stripe, Stripe Tax works the tax out at payment from the billing address: none is shown here. */
  taxAtPayment: z.boolean(),
  /** What Checkout charges: the lines after the discount, plus shipping and any tax added on top. */
  total: z.number().int(),
  displayTotal: text(),
});
export type Basket = z.infer<typeof basketSchema>;

/** POST /api/checkout/basket: the server prices every line; there is no amount in the request. */
export const basketCheckoutRequestSchema = z.object({
  discountCode: discountCodeField,
  /** Where the print lines go (ISO 3166-1 alpha-2), when the reader chose it before paying. */
  shippingCountry: countryCode(BASKET_MESSAGES.country).optional(),
  /** Where the reader lives, for the tax of a basket with nothing to ship (the shipping country wins). */
  billingCountry: countryCode(BASKET_MESSAGES.billingCountry).optional(),
});
export type BasketCheckoutRequest = z.infer<typeof basketCheckoutRequestSchema>;
