import { z } from 'zod';
import { TIMESTAMP_KEY, cursorParam, nextCursorSchema, pageLimitParam } from './pages';
import { giftSummarySchema } from './gifts';
import { ALL_FORMATS, DIGITAL_FORMATS, PURCHASE_STATUSES, ROLES } from '../constants';
import { SUBSCRIBER_SOURCES, SUBSCRIBER_STATES } from '../subscribers';
import { dbId, MAX_DB_ID, paragraphText, text } from './common';

// ---- blog posts -------------------------------------------------------------------------------

export { SLUG_PATTERN, slugify } from '../slug';
import { SLUG_PATTERN } from '../slug';

export const postInputSchema = z.object({
  title: text().trim().min(1, 'Title is required').max(200),
  slug: text()
    .trim()
    .max(120)
    .refine((v) => v === '' || SLUG_PATTERN.test(v), 'Slug may contain lower-case letters, numbers and dashes'),
  excerpt: text().trim().min(1, 'Excerpt is required').max(600),
  content: text().trim().min(1, 'Content is required').max(200_000),
  coverImage: text().trim().max(500).default(''),
  bookId: z.number().int().positive().max(MAX_DB_ID).nullable().default(null),
  tags: z.array(text().trim().min(1).max(40)).max(12).default([]),
  isPublished: z.boolean().default(false),
});
export type PostInput = z.input<typeof postInputSchema>;

export const adminPostSchema = z.object({
  id: z.number().int(),
  title: text(),
  slug: text(),
  excerpt: text(),
  content: text(),
  coverImage: text().nullable(),
  bookId: z.number().int().nullable(),
  tags: z.array(text()),
  isPublished: z.boolean(),
  publishedAt: text(),
  updatedAt: text(),
});
export type AdminPost = z.infer<typeof adminPostSchema>;
export const adminPostSummarySchema = adminPostSchema.omit({ content: true });
export type AdminPostSummary = z.infer<typeof adminPostSummarySchema>;
export const POSTS_PAGE_SIZE = 100;
export const postQuerySchema = z.object({ after: cursorParam(TIMESTAMP_KEY).optional(), limit: pageLimitParam(POSTS_PAGE_SIZE) });
/** Newest first, drafts included, one keyset page at a time (decision 0071). */
export const postPageSchema = z.object({ items: z.array(adminPostSummarySchema), nextCursor: nextCursorSchema });
export type PostPage = z.infer<typeof postPageSchema>;

export const publishInputSchema = z.object({ isPublished: z.boolean() });

// ---- digital files ----------------------------------------------------------------------------

/** Largest upload per format, in bytes. Audiobooks are big; text formats are not. */
export const UPLOAD_LIMITS: Record<(typeof DIGITAL_FORMATS)[number], number> = {
  ebook: 50 * 1024 * 1024,
  pdf: 50 * 1024 * 1024,
  audiobook: 500 * 1024 * 1024,
};

export const adminAssetSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  bookTitle: text(),
  format: z.enum(DIGITAL_FORMATS),
  fileName: text(),
  contentType: text(),
  fileSizeKb: z.number().int(),
  version: text(),
  updatedAt: text(),
  /** Still the sample file the site was seeded with (not the real book yet). */
  sample: z.boolean(),
  /** After a replacement with "Tell owners about this edition": how many owners are being told (decision 0091). */
  ownersNotified: z.number().int().optional(),
});
export type AdminAsset = z.infer<typeof adminAssetSchema>;
export const assetParams = z.object({
  id: dbId(),
  format: z.enum(DIGITAL_FORMATS, { message: 'Format must be ebook, audiobook or pdf' }),
});

/** The words of the new edition notice (decision 0091), shared by the API, its tests and the files page. */
export const EDITION_NOTICE_MESSAGES = {
  checkbox: 'Tell owners about this edition',
  noteLabel: "Author's note",
  noteLong: "The author's note must be at most 2,000 characters",
  formatOnly: 'Only a new e-book or PDF edition can be announced to its owners',
  notify: 'notifyOwners must be true or false',
} as const;

/**
 * The form fields sent before the file in a replacement upload: whether to tell the format's owners, and
 * the author's note for the mail. Multipart fields are text, so the box arrives as "true" or "false".
 */
export const editionNoticeFieldsSchema = z.object({
  notifyOwners: z
    .enum(['true', 'false'], { message: EDITION_NOTICE_MESSAGES.notify })
    .default('false')
    .transform((v) => v === 'true'),
  note: paragraphText().trim().max(2000, EDITION_NOTICE_MESSAGES.noteLong).default(''),
});

// ---- orders -----------------------------------------------------------------------------------

export const orderQuerySchema = z.object({
  status: z.enum(PURCHASE_STATUSES).optional(),
  format: z.enum(ALL_FORMATS).optional(),
  q: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  /** The `nextCursor` of the page before: continues from there, at any depth (decision 0071). */
  after: cursorParam(TIMESTAMP_KEY).optional(),
});
export type OrderQuery = z.input<typeof orderQuerySchema>;
/** The order CSV takes the list's filters and search, and no page: it is the whole list. */
export const orderExportQuerySchema = orderQuerySchema.pick({ status: true, format: true, q: true });

export const orderRefundSchema = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  /** It gave back all that was left, so the row's formats left the library. */
  whole: z.boolean(),
  at: text(),
  by: text().nullable(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

export const adminOrderSchema = z.object({
  id: z.number().int(),
  orderReference: text(),
  purchaseDate: text(),
  buyer: z.object({ id: z.number().int(), username: text(), email: text(), displayName: text().nullable() }),
  book: z.object({ id: z.number().int(), title: text() }),
  format: text(),
  price: z.number().int(),
  currency: text(),
  status: z.enum(PURCHASE_STATUSES),
  downloadCount: z.number().int(),
  maxDownloads: z.number().int(),
  downloadUsed: z.boolean(),
  lastDownloaded: text().nullable(),
  shippedAt: text().nullable(),
  /** Given at "Mark shipped" (decision 0076); null for an order shipped without tracking. */
  carrier: text().nullable().optional(),
  trackingNumber: text().nullable().optional(),
  trackingUrl: text().nullable().optional(),
  customerName: text().nullable(),
  /** As the payment provider collected it (physical formats only). */
  shippingAddress: z.unknown(),
  /** 'paid', 'included', 'gift', 'gift_claim' or 'free'; only paid rows and gifts can be refunded. */
  kind: text().optional(),
  refundedAt: text().nullable().optional(),
  /** Name of the admin who refunded it; null for a refund made at the payment provider. */
  refundedBy: text().nullable().optional(),
  /** A gift: its recipient and where it stands, down to whether the recipient downloaded it. */
  gift: giftSummarySchema.nullable().optional(),
  /** The basket order line this row is (`lineId` of a refund), or null for a direct purchase. */
  lineId: z.number().int().nullable().optional(),
  /** What has been given back of `price` so far, in every refund of it (decision 0082). */
  refundedAmount: z.number().int().optional(),
  /** Each refund of this row, oldest first; `by` is null for one made at the payment provider. */
  refunds: z.array(orderRefundSchema).optional(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/**
 * POST /api/admin/orders/{id}/refund (decision 0082): nothing refunds the order row {id} whole, as before;
 * `lineId` refunds another line of the same basket order; `amount` (in pence) gives back only that much
 * of the row, or of the line.
 */
export const refundOrderSchema = z
  .object({
    lineId: dbId().optional(),
    amount: z
      .number({ message: 'The amount must be a number of pence' })
      .int('The amount must be a whole number of pence')
      .min(1, 'The amount must be at least 1p')
      .max(10_000_000, 'The amount is larger than any order')
      .optional(),
  })
  .strict();
export type RefundOrderInput = z.infer<typeof refundOrderSchema>;

/** A blank field is a field not given, as a form sends it. */
const optionalText = (max: number) =>
  text()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((v) => v || undefined);

/**
 * "Mark shipped" (POST /api/admin/orders/{id}/ship): a carrier and its tracking number, and a tracking
 * link, or nothing at all for a parcel sent untracked (decision 0076).
 */
export const shipOrderSchema = z
  .object({
    carrier: optionalText(100),
    trackingNumber: optionalText(100),
    trackingUrl: optionalText(500).refine(
      (v) => v === undefined || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
      'The tracking link must be a web address starting with http:// or https://',
    ),
  })
  .superRefine((v, ctx) => {
    if (v.carrier && !v.trackingNumber) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'Give the tracking number for this carrier' });
    if (v.trackingNumber && !v.carrier) ctx.addIssue({ code: 'custom', path: ['carrier'], message: 'Give the carrier of this tracking number' });
    if (v.trackingUrl && !v.trackingNumber) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'A tracking link needs its carrier and tracking number' });
  });
export type ShipOrderInput = z.input<typeof shipOrderSchema>;
export type ShipOrder = z.output<typeof shipOrderSchema>;
export const ORDERS_PAGE_SIZE = 50;
/** Orders are counted up to this many (decision 0105): past it the list says "More than 1,000 orders". */
export const ORDERS_COUNT_CAP = 1000;
export const orderPageSchema = z.object({
  items: z.array(adminOrderSchema),
  /** How many orders match, exact up to ORDERS_COUNT_CAP; `totalCapped` when more match than that. */
  total: z.number().int(),
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Where the next page starts (`after=`), or null on the last page. */
  nextCursor: nextCursorSchema,
});
export type OrderPage = z.infer<typeof orderPageSchema>;

// ---- readers and messages ---------------------------------------------------------------------

export const adminMessageSchema = z.object({
  id: z.number().int(),
  name: text(),
  email: text(),
  subject: text(),
  message: text(),
  createdAt: text(),
  readAt: text().nullable(),
});
export type AdminMessage = z.infer<typeof adminMessageSchema>;
export const MESSAGES_PAGE_SIZE = 50;
export const messageQuerySchema = z.object({
  filter: z.enum(['all', 'unread']).default('all'),
  after: cursorParam(TIMESTAMP_KEY).optional(),
  limit: pageLimitParam(MESSAGES_PAGE_SIZE),
});
/** Newest first, one keyset page at a time (decision 0071), with the inbox's unread count (the filter does not change it). */
export const messageListSchema = z.object({ items: z.array(adminMessageSchema), nextCursor: nextCursorSchema, unread: z.number().int() });
export type MessageList = z.infer<typeof messageListSchema>;
export const readInputSchema = z.object({ read: z.boolean() });

export const adminSubscriberSchema = z.object({
  id: z.number().int(),
  email: text(),
  name: text().nullable(),
  subscribedAt: text(),
  unsubscribedAt: text().nullable(),
  state: z.enum(SUBSCRIBER_STATES),
  source: z.enum(SUBSCRIBER_SOURCES),
});
export type AdminSubscriber = z.infer<typeof adminSubscriberSchema>;
export const SUBSCRIBERS_PAGE_SIZE = 100;
export const subscriberQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  after: cursorParam(TIMESTAMP_KEY).optional(),
  limit: pageLimitParam(SUBSCRIBERS_PAGE_SIZE),
});
/** Newest first, one keyset page at a time, with the list's counts (decision 0071). */
export const subscriberPageSchema = z.object({
  items: z.array(adminSubscriberSchema),
  nextCursor: nextCursorSchema,
  /** Every address on the list, and those that have not left; the search does not change these. */
  total: z.number().int(),
  active: z.number().int(),
  unconfirmed: z.number().int(),
});
export type SubscriberPage = z.infer<typeof subscriberPageSchema>;

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: text(),
  email: text(),
  displayName: text().nullable(),
  role: z.enum(ROLES),
  isSubscribed: z.boolean(),
  createdAt: text(),
  purchases: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const USERS_PAGE_SIZE = 100;
export const userQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  after: cursorParam(TIMESTAMP_KEY).optional(),
  limit: pageLimitParam(USERS_PAGE_SIZE),
});
export const userExportQuerySchema = userQuerySchema.pick({ q: true });
/** Newest accounts first, one keyset page at a time (decision 0071). */
export const userPageSchema = z.object({ items: z.array(adminUserSchema), nextCursor: nextCursorSchema });
export type UserPage = z.infer<typeof userPageSchema>;

// ---- site settings ----------------------------------------------------------------------------

const url = (label: string) =>
  text()
    .trim()
    .max(500)
    .refine((v) => v === '' || v === '#' || /^https?:\/\/\S+$/i.test(v), `${label} must be a web address (https://...)`);

/** The editable part of the site content, plus the upcoming book's teaser video. */
export const siteSettingsSchema = z.object({
  authorName: text().trim().min(1, 'Author name is required').max(120),
  authorBio: z
    .array(text().trim().min(1).max(3000))
    .min(1, 'The bio needs at least one paragraph')
    .max(12),
  publisher: z.object({ name: text().trim().min(1, 'Publisher is required').max(200), url: url('Publisher link') }),
  agent: z.object({
    name: text().trim().min(1, 'Agent name is required').max(200),
    agency: text().trim().max(200),
  }),
  social: z.object({
    x: url('X link'),
    instagram: url('Instagram link'),
    facebook: url('Facebook link'),
    goodreads: url('Goodreads link'),
  }),
  teaserVideoId: text()
    .trim()
    .refine((v) => v === '' || /^[A-Za-z0-9_-]{6,20}$/.test(v), 'Teaser video must be a video id such as Xq3vR8nLw2E'),
  /** "Ask new subscribers to confirm" (decision 0069); left out, it stays as it is. */
  askSubscribersToConfirm: z.boolean().optional(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The same shape as stored, without the input rules (what is stored may predate a rule). */
export const siteSettingsAnswerSchema = z.object({
  authorName: text(),
  authorBio: z.array(text()),
  publisher: z.object({ name: text(), url: text() }),
  agent: z.object({ name: text(), agency: text() }),
  social: z.object({ x: text(), instagram: text(), facebook: text(), goodreads: text() }),
  teaserVideoId: text(),
  askSubscribersToConfirm: z.boolean(),
});

/** Accepts a bare video id or a YouTube watch/share/embed address and returns the id. */
export function videoIdFrom(input: string): string {
  const v = input.trim();
  const m = v.match(/(?:v=|youtu\.be\/|embed\/|shorts\/)([A-Za-z0-9_-]{6,20})/);
  return m ? m[1] : v;
}

// ---- audit ------------------------------------------------------------------------------------

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: text().nullable(),
  action: text(),
  targetType: text().nullable(),
  targetId: text().nullable(),
  details: z.unknown(),
  createdAt: text(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const okSchema = z.object({ success: z.literal(true), message: text() });

// ---- images (covers) ------------------------------------------------------------------------------

/** Cover images the admin uploads: PNG, JPEG, WebP or AVIF, up to 5 MB. */
export const IMAGE_UPLOAD_LIMIT = 5 * 1024 * 1024;
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/avif';
export const uploadedImageSchema = z.object({
  url: text(),
  contentType: text(),
  bytes: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
/** The name the server gives an uploaded image: 128 random bits as hex, and the type's extension. */
const IMAGE_NAME = /^[a-f0-9]{32}\.(png|jpg|webp|avif)$/;
/** Where uploaded images are served from. */
export const IMAGE_PATH_PREFIX = '/media/images/';
export const imageNameParams = z.object({ name: text().regex(IMAGE_NAME) });

/** Whether `src` is an image uploaded to this site: the only images a post may show. */
export function isUploadedImagePath(src: string | null | undefined): boolean {
  return typeof src === 'string' && src.startsWith(IMAGE_PATH_PREFIX) && IMAGE_NAME.test(src.slice(IMAGE_PATH_PREFIX.length));
}
