/**
 * Store schemas (SPEC 3, SPEC 7): checkout, the local payment page, the library, assets and download
 * links. One schema validates the request on the server and types the answer on the client.
 */
import { z } from 'zod';
import { ALL_FORMATS, DIGITAL_FORMATS, PURCHASE_FORMATS, PURCHASE_STATUSES } from '../constants';
import { dbId, MAX_DB_ID, text } from './common';
import { discountCodeField } from './discounts';
import { giftRequestSchema, giftSummarySchema } from './gifts';

export const INVALID_FORMAT_MESSAGE = 'Invalid format specified';

export const purchaseFormatSchema = z.enum(PURCHASE_FORMATS, { message: INVALID_FORMAT_MESSAGE });

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
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const checkoutResponseSchema = z.object({ url: text() });
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
});
export type StoreFormat = z.infer<typeof storeFormatSchema>;

export const storeFormatsResponseSchema = z.object({
  book: z.object({ id: z.number().int(), title: text() }).nullable(),
  formats: z.array(storeFormatSchema),
});
export type StoreFormatsResponse = z.infer<typeof storeFormatsResponseSchema>;

export const CHECKOUT_STATUSES = ['open', 'completed', 'cancelled', 'expired'] as const;

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

// --- library ------------------------------------------------------------------------------------

export const libraryBookSchema = z.object({ id: z.number().int(), title: text(), coverImage: text() });

/** SPEC 3 "Library purchase item". */
export const libraryItemSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  userId: z.number().int(),
  format: z.enum(DIGITAL_FORMATS),
  downloadCount: z.number().int(),
  maxDownloads: z.number().int(),
  downloadUsed: z.boolean(),
  lastDownloaded: text().nullable(),
  purchaseDate: text(),
  book: libraryBookSchema,
  /** The ebook came with this paid print copy ("Included with your hardcover"). */
  includedWith: z.enum(['hardcover', 'paperback']).nullable().optional(),
  /** A pre-ordered book not out yet: when its download opens (ISO). */
  availableAt: text().nullable().optional(),
});
export type LibraryItem = z.infer<typeof libraryItemSchema>;
export const libraryResponseSchema = z.array(libraryItemSchema);

/** A hardcover or paperback purchase: an order to ship, with its status. */
export const orderSchema = z.object({
  id: z.number().int(),
  orderReference: text(),
  format: z.enum(ALL_FORMATS),
  price: z.number().int(),
  displayPrice: text(),
  status: z.enum(PURCHASE_STATUSES),
  purchaseDate: text(),
  shippedAt: text().nullable(),
  book: libraryBookSchema,
  /** Set when the order is a format bought as a gift. */
  gift: giftSummarySchema.optional(),
});
export type Order = z.infer<typeof orderSchema>;
export const ordersResponseSchema = z.array(orderSchema);

/** `userId` may be sent (SPEC 7); the server compares it with the session and otherwise ignores it. */
export const userIdQuery = z.object({ userId: dbId().optional() });

export const assetQuerySchema = userIdQuery.extend({ format: z.enum(DIGITAL_FORMATS, { message: INVALID_FORMAT_MESSAGE }) });
export const bookIdParams = z.object({ bookId: dbId() });
export const assetIdParams = z.object({ assetId: dbId() });

export const digitalAssetSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  format: z.enum(DIGITAL_FORMATS),
  fileName: text(),
  fileSizeKb: z.number().int(),
  version: text(),
  createdAt: text(),
  updatedAt: text(),
});
export type DigitalAsset = z.infer<typeof digitalAssetSchema>;

export const assetLookupSchema = z.object({
  success: z.boolean(),
  asset: digitalAssetSchema.nullable(),
  message: text(),
});
export type AssetLookup = z.infer<typeof assetLookupSchema>;

export const downloadLinkSchema = z.object({
  success: z.boolean(),
  downloadUrl: text(),
  fileName: text(),
  message: text(),
});
export type DownloadLink = z.infer<typeof downloadLinkSchema>;

/** Messages the client matches (SPEC 8): keep "Download limit" in the refusal. */
export const DOWNLOAD_LIMIT_MESSAGE =
  'Download limit reached: you have already used your download for this format.';

/** How a format is named to readers (receipts, payment page, library rows). */
export const FORMAT_LABELS: Record<string, string> = {
  hardcover: 'Hardcover',
  paperback: 'Paperback',
  ebook: 'E-Book',
  audiobook: 'Audiobook',
  pdf: 'PDF',
};
export const formatLabel = (format: string) => FORMAT_LABELS[format] ?? format;
