import { z } from 'zod';
import { giftSummarySchema } from './gifts';
import { ALL_FORMATS, DIGITAL_FORMATS, PURCHASE_STATUSES, ROLES } from '../constants';
import { SUBSCRIBER_SOURCES, SUBSCRIBER_STATES } from '../subscribers';
import { dbId, MAX_DB_ID, text } from './common';

// ---- blog posts -------------------------------------------------------------------------------

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Lower-case, ASCII, dash-separated: "A First Look!" -> "a-first-look". */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/g, '');
}

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
});
export type AdminAsset = z.infer<typeof adminAssetSchema>;
export const assetParams = z.object({
  id: dbId(),
  format: z.enum(DIGITAL_FORMATS, { message: 'Format must be ebook, audiobook or pdf' }),
});

// ---- orders -----------------------------------------------------------------------------------

export const orderQuerySchema = z.object({
  status: z.enum(PURCHASE_STATUSES).optional(),
  format: z.enum(ALL_FORMATS).optional(),
  q: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type OrderQuery = z.input<typeof orderQuerySchema>;

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
  customerName: text().nullable(),
  /** As the payment provider collected it (physical formats only). */
  shippingAddress: z.unknown(),
  /** 'paid', 'included', 'gift' or 'gift_claim'; only paid rows and gifts can be refunded. */
  kind: text().optional(),
  refundedAt: text().nullable().optional(),
  /** Name of the admin who refunded it; null for a refund made at the payment provider. */
  refundedBy: text().nullable().optional(),
  /** A gift: its recipient and where it stands, down to whether the recipient downloaded it. */
  gift: giftSummarySchema.nullable().optional(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const ORDERS_PAGE_SIZE = 50;
export const orderPageSchema = z.object({
  items: z.array(adminOrderSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
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
export const messageQuerySchema = z.object({ filter: z.enum(['all', 'unread']).default('all') });
export const messageListSchema = z.object({ items: z.array(adminMessageSchema), unread: z.number().int() });
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
