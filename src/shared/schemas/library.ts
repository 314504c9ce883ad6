/**
 * Library schemas (docs/PRODUCT.md, Library; Downloads): a reader's digital items and print orders, assets and download links.
 */
import { z } from 'zod';
import { ALL_FORMATS, DIGITAL_FORMATS, PURCHASE_STATUSES } from '../constants';
import { dbId, INVALID_FORMAT_MESSAGE, text } from './common';
import { giftSummarySchema } from './gifts';

export const libraryBookSchema = z.object({ id: z.number().int(), title: text(), coverImage: text() });

/** A library item (docs/PRODUCT.md, Library). */
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
  /** The ebook came with this paid print copy ("Included with your hardcover"); the PDF with the e-book. */
  includedWith: z.enum(['hardcover', 'paperback', 'ebook']).nullable().optional(),
  /** A pre-ordered book not out yet: when its download opens (ISO). */
  availableAt: text().nullable().optional(),
  /** False when the book is out but the author has not uploaded this format's file yet ("Not ready yet"). */
  fileReady: z.boolean().optional(),
  /** The download's link is still open and its transfer unfinished: resume it from this row until then (ISO). */
  resumeUntil: text().nullable().optional(),
  /** "Need another download?" was asked and waits for the author. */
  downloadRequest: z.enum(['pending']).nullable().optional(),
  /** The author replaced this format's file and told its owners; shown as "Updated" until the next download (0091). */
  updated: z.boolean().optional(),
});
export type LibraryItem = z.infer<typeof libraryItemSchema>;
export const libraryResponseSchema = z.array(libraryItemSchema);

/** One of the reader's orders ("Your Orders"): any format they paid for, a gift, with its status. */
export const orderSchema = z.object({
  id: z.number().int(),
  orderReference: text(),
  format: z.enum(ALL_FORMATS),
  price: z.number().int(),
  displayPrice: text(),
  status: z.enum(PURCHASE_STATUSES),
  purchaseDate: text(),
  shippedAt: text().nullable(),
  /** How the parcel travels, when the author gave it on shipping (decision 0076). */
  carrier: text().nullable().optional(),
  trackingNumber: text().nullable().optional(),
  trackingUrl: text().nullable().optional(),
  book: libraryBookSchema,
  /** Set when the order is a format bought as a gift. */
  gift: giftSummarySchema.optional(),
  /** The list price when a discount code lowered what was paid, and the code. */
  displayListPrice: text().nullable().optional(),
  discountCode: text().nullable().optional(),
  refundedAt: text().nullable().optional(),
  /** A pre-ordered book not out yet: its release date (ISO); the status reads "Pre-order, available on {date}". */
  availableAt: text().nullable().optional(),
  /** Copies of a print format ordered together from the basket (1 otherwise). */
  quantity: z.number().int().optional(),
  /** A basket line's tax and what it cost without it (decision 0080); null when it carried no tax. */
  tax: z.number().int().nullable().optional(),
  displayTax: text().nullable().optional(),
  displayNet: text().nullable().optional(),
  /** The shipping its order was charged (decision 0081), on the order's first print line; null otherwise. */
  displayShipping: text().nullable().optional(),
});
export type Order = z.infer<typeof orderSchema>;
export const ordersResponseSchema = z.array(orderSchema);

/** `userId` may be sent (docs/PRODUCT.md, API); the server compares it with the session and otherwise ignores it. */
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

/** Messages the client matches (docs/PRODUCT.md, Downloads): keep "Download limit" in the refusal. */
/** A purchased format whose file is not there (not uploaded yet, or missing from storage). */
export const FILE_NOT_READY_MESSAGE = 'This file is not ready yet. Please try again later, or contact us if it does not appear.';

export const DOWNLOAD_LIMIT_MESSAGE =
  'Download limit reached: you have already used your download for this format.';
