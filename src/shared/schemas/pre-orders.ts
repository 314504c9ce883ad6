/** Pre-orders (issue 15 point 4): the admin's settings, the home page's pre-order area, the library's date. */
import { z } from 'zod';
import { PURCHASE_FORMATS } from '../constants';
import { isoDateTime, text } from './common';

export const PRE_ORDER_MESSAGES = {
  releaseAtInvalid: 'Please enter a valid release date and time',
  priceInvalid: 'Prices must be whole pence above zero',
} as const;

const pence = z
  .number({ message: PRE_ORDER_MESSAGES.priceInvalid })
  .int(PRE_ORDER_MESSAGES.priceInvalid)
  .positive(PRE_ORDER_MESSAGES.priceInvalid)
  .max(1_000_000, PRE_ORDER_MESSAGES.priceInvalid);

/** PUT /api/admin/books/:id/pre-order: a price (pence) or null (not sold) per format, and the release. */
export const preOrderSettingsSchema = z.object({
  releaseAt: isoDateTime(PRE_ORDER_MESSAGES.releaseAtInvalid).nullable(),
  prices: z.object(Object.fromEntries(PURCHASE_FORMATS.map((f) => [f, pence.nullable()])) as Record<
    (typeof PURCHASE_FORMATS)[number],
    z.ZodNullable<typeof pence>
  >),
});
export type PreOrderSettings = z.infer<typeof preOrderSettingsSchema>;

/**
 * What the release form answers besides the settings: every pre-ordered digital format (on sale, or
 * bought) that has no file yet, with how many orders wait for it (issue 25 point 5).
 */
export const missingFileSchema = z.object({
  format: z.enum(['ebook', 'audiobook', 'pdf']),
  label: text(),
  orders: z.number().int(),
});
export type MissingFile = z.infer<typeof missingFileSchema>;
export const preOrderSettingsAnswerSchema = preOrderSettingsSchema.extend({ missingFiles: z.array(missingFileSchema) });
export type PreOrderSettingsAnswer = z.infer<typeof preOrderSettingsAnswerSchema>;

/** The release form's warning for one format without a file (what the release does about it: decision 0056). */
export const missingFileWarning = (file: MissingFile) =>
  `${file.label}: no file uploaded yet${file.orders > 0 ? ` (${file.orders} ${file.orders === 1 ? 'order' : 'orders'} waiting)` : ''}.`;

/** GET /api/store/pre-order: the upcoming book's pre-order area, or null when it is not on pre-order. */
export const preOrderAreaSchema = z.object({
  book: z.object({ id: z.number().int(), title: text() }),
  releaseAt: text(),
  released: z.boolean(),
  formats: z.array(
    z.object({
      id: z.enum(PURCHASE_FORMATS),
      title: text(),
      price: z.number().int(),
      displayPrice: text(),
    }),
  ),
});
export type PreOrderArea = z.infer<typeof preOrderAreaSchema>;
export const preOrderAnswerSchema = preOrderAreaSchema.nullable();

const releaseDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});
export const formatReleaseDate = (iso: string | Date) => releaseDate.format(new Date(iso));

/** What the asset lookup, the download, the reading room and Send to Kindle answer before a pre-ordered book is out. */
export const availableOnMessage = (iso: string | Date) => `Available on ${formatReleaseDate(iso)}`;

/** What every screen says of a pre-order before the release (issue 25 point 5): payment page, toast, receipt, orders, library, reader. */
export const preOrderNotice = (iso: string | Date) => `Pre-order, available on ${formatReleaseDate(iso)}`;
