/**
 * Store schemas (SPEC 3, SPEC 7): checkout, the local payment page, the library, assets and download
 * links. One schema validates the request on the server and types the answer on the client.
 */
import { z } from 'zod';
import { ALL_FORMATS, DIGITAL_FORMATS, PURCHASE_FORMATS, PURCHASE_STATUSES } from '../constants';
import { dbId, MAX_DB_ID } from './common';

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
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const checkoutResponseSchema = z.object({ url: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** One format card of the purchase section: display content from site settings, price from the server. */
export const storeFormatSchema = z.object({
  id: purchaseFormatSchema,
  title: z.string(),
  price: z.number().int(),
  currency: z.string(),
  displayPrice: z.string(),
  features: z.array(z.string()),
  buttonText: z.string(),
});
export type StoreFormat = z.infer<typeof storeFormatSchema>;

export const storeFormatsResponseSchema = z.object({
  book: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  formats: z.array(storeFormatSchema),
});
export type StoreFormatsResponse = z.infer<typeof storeFormatsResponseSchema>;

export const CHECKOUT_STATUSES = ['open', 'completed', 'cancelled', 'expired'] as const;

/** What the local payment page shows about one checkout session. */
export const paymentSessionSchema = z.object({
  id: z.string(),
  status: z.enum(CHECKOUT_STATUSES),
  /** 'local' sessions are paid on our own page; 'stripe' ones only show their confirmation there. */
  provider: z.enum(['local', 'stripe']),
  format: purchaseFormatSchema,
  amount: z.number().int(),
  currency: z.string(),
  displayPrice: z.string(),
  digital: z.boolean(),
  expiresAt: z.string(),
  book: z.object({ id: z.number().int(), title: z.string(), coverImage: z.string() }),
  customerEmail: z.string(),
  orderReference: z.string().nullable(),
});
export type PaymentSession = z.infer<typeof paymentSessionSchema>;

export const paymentSessionParams = z.object({ sessionId: z.string().min(1).max(100) });

/** Answer of paying or cancelling on the local payment page: where the browser goes next. */
export const paymentResultSchema = z.object({
  status: z.enum(CHECKOUT_STATUSES),
  redirectTo: z.string(),
  orderReference: z.string().nullable(),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

// --- library ------------------------------------------------------------------------------------

export const libraryBookSchema = z.object({ id: z.number().int(), title: z.string(), coverImage: z.string() });

/** SPEC 3 "Library purchase item". */
export const libraryItemSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  userId: z.number().int(),
  format: z.enum(DIGITAL_FORMATS),
  downloadCount: z.number().int(),
  maxDownloads: z.number().int(),
  downloadUsed: z.boolean(),
  lastDownloaded: z.string().nullable(),
  purchaseDate: z.string(),
  book: libraryBookSchema,
});
export type LibraryItem = z.infer<typeof libraryItemSchema>;
export const libraryResponseSchema = z.array(libraryItemSchema);

/** A hardcover or paperback purchase: an order to ship, with its status. */
export const orderSchema = z.object({
  id: z.number().int(),
  orderReference: z.string(),
  format: z.enum(ALL_FORMATS),
  price: z.number().int(),
  displayPrice: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  purchaseDate: z.string(),
  shippedAt: z.string().nullable(),
  book: libraryBookSchema,
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
  fileName: z.string(),
  fileSizeKb: z.number().int(),
  version: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DigitalAsset = z.infer<typeof digitalAssetSchema>;

export const assetLookupSchema = z.object({
  success: z.boolean(),
  asset: digitalAssetSchema.nullable(),
  message: z.string(),
});
export type AssetLookup = z.infer<typeof assetLookupSchema>;

export const downloadLinkSchema = z.object({
  success: z.boolean(),
  downloadUrl: z.string(),
  fileName: z.string(),
  message: z.string(),
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
