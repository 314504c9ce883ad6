import { z } from 'zod';
import { ALL_FORMATS, DIGITAL_FORMATS, PURCHASE_STATUSES, ROLES } from '../constants';
import { dbId, MAX_DB_ID } from './common';

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
  title: z.string().trim().min(1, 'Title is required').max(200),
  slug: z
    .string()
    .trim()
    .max(120)
    .refine((v) => v === '' || SLUG_PATTERN.test(v), 'Slug may contain lower-case letters, numbers and dashes'),
  excerpt: z.string().trim().min(1, 'Excerpt is required').max(600),
  content: z.string().trim().min(1, 'Content is required').max(200_000),
  coverImage: z.string().trim().max(500).default(''),
  bookId: z.number().int().positive().max(MAX_DB_ID).nullable().default(null),
  tags: z.array(z.string().trim().min(1).max(40)).max(12).default([]),
  isPublished: z.boolean().default(false),
});
export type PostInput = z.input<typeof postInputSchema>;

export const adminPostSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  content: z.string(),
  coverImage: z.string().nullable(),
  bookId: z.number().int().nullable(),
  tags: z.array(z.string()),
  isPublished: z.boolean(),
  publishedAt: z.string(),
  updatedAt: z.string(),
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
  bookTitle: z.string(),
  format: z.enum(DIGITAL_FORMATS),
  fileName: z.string(),
  contentType: z.string(),
  fileSizeKb: z.number().int(),
  version: z.string(),
  updatedAt: z.string(),
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
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type OrderQuery = z.input<typeof orderQuerySchema>;

export const adminOrderSchema = z.object({
  id: z.number().int(),
  orderReference: z.string(),
  purchaseDate: z.string(),
  buyer: z.object({ id: z.number().int(), username: z.string(), email: z.string(), displayName: z.string().nullable() }),
  book: z.object({ id: z.number().int(), title: z.string() }),
  format: z.string(),
  price: z.number().int(),
  currency: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  downloadCount: z.number().int(),
  maxDownloads: z.number().int(),
  downloadUsed: z.boolean(),
  lastDownloaded: z.string().nullable(),
  shippedAt: z.string().nullable(),
  customerName: z.string().nullable(),
  /** As the payment provider collected it (physical formats only). */
  shippingAddress: z.unknown(),
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
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type AdminMessage = z.infer<typeof adminMessageSchema>;
export const messageQuerySchema = z.object({ filter: z.enum(['all', 'unread']).default('all') });
export const messageListSchema = z.object({ items: z.array(adminMessageSchema), unread: z.number().int() });
export type MessageList = z.infer<typeof messageListSchema>;
export const readInputSchema = z.object({ read: z.boolean() });

export const adminSubscriberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  subscribedAt: z.string(),
  unsubscribedAt: z.string().nullable(),
});
export type AdminSubscriber = z.infer<typeof adminSubscriberSchema>;

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: z.enum(ROLES),
  isSubscribed: z.boolean(),
  createdAt: z.string(),
  purchases: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

// ---- site settings ----------------------------------------------------------------------------

const url = (label: string) =>
  z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === '' || v === '#' || /^https?:\/\/\S+$/i.test(v), `${label} must be a web address (https://...)`);

/** The editable part of the site content, plus the upcoming book's teaser video. */
export const siteSettingsSchema = z.object({
  authorName: z.string().trim().min(1, 'Author name is required').max(120),
  authorBio: z
    .array(z.string().trim().min(1).max(3000))
    .min(1, 'The bio needs at least one paragraph')
    .max(12),
  publisher: z.object({ name: z.string().trim().min(1, 'Publisher is required').max(200), url: url('Publisher link') }),
  agent: z.object({
    name: z.string().trim().min(1, 'Agent name is required').max(200),
    agency: z.string().trim().max(200),
  }),
  social: z.object({
    x: url('X link'),
    instagram: url('Instagram link'),
    facebook: url('Facebook link'),
    goodreads: url('Goodreads link'),
  }),
  teaserVideoId: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[A-Za-z0-9_-]{6,20}$/.test(v), 'Teaser video must be a video id such as Xq3vR8nLw2E'),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The same shape as stored, without the input rules (what is stored may predate a rule). */
export const siteSettingsAnswerSchema = z.object({
  authorName: z.string(),
  authorBio: z.array(z.string()),
  publisher: z.object({ name: z.string(), url: z.string() }),
  agent: z.object({ name: z.string(), agency: z.string() }),
  social: z.object({ x: z.string(), instagram: z.string(), facebook: z.string(), goodreads: z.string() }),
  teaserVideoId: z.string(),
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
  actor: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const okSchema = z.object({ success: z.literal(true), message: z.string() });

// ---- images (covers) ------------------------------------------------------------------------------

/** Cover images the admin uploads: PNG, JPEG, WebP or AVIF, up to 5 MB. */
export const IMAGE_UPLOAD_LIMIT = 5 * 1024 * 1024;
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/avif';
export const uploadedImageSchema = z.object({
  url: z.string(),
  contentType: z.string(),
  bytes: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
export const imageNameParams = z.object({ name: z.string().regex(/^[a-f0-9]{32}\.(png|jpg|webp|avif)$/) });
