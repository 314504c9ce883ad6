import { sql } from 'drizzle-orm';
import { CURRENCY } from '../../shared/constants';
import { SUBSCRIBER_SOURCES, SUBSCRIBER_STATES, type SubscriberSource, type SubscriberState } from '../../shared/subscribers';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const formatList = (formats: readonly string[]) => sql.raw(formats.map((f) => `'${f}'`).join(', '));
const ALL = formatList(['hardcover', 'paperback', 'ebook', 'audiobook', 'pdf']);
const DIGITAL = formatList(['ebook', 'audiobook', 'pdf']);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    isSubscribed: boolean('is_subscribed').notNull().default(false),
    role: text('role').notNull().default('user'),
    resetTokenHash: text('reset_token_hash'),
    resetTokenExpires: ts('reset_token_expires'),
    passwordChangedAt: ts('password_changed_at'),
    createdAt: createdAt(),
    /** Confusable skeleton of the username (decision 0014); filled on sign-up, and for older rows lazily. */
    usernameSkeleton: text('username_skeleton'),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    index('users_username_skeleton_idx').on(t.usernameSkeleton),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    uniqueIndex('users_reset_token_uq').on(t.resetTokenHash),
    check('users_role_ck', sql`${t.role} in ('user', 'admin')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cookieHash: text('cookie_hash').notNull(),
    bearerHash: text('bearer_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('sessions_cookie_uq').on(t.cookieHash),
    uniqueIndex('sessions_bearer_uq').on(t.bearerHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

export const books = pgTable(
  'books',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    coverImage: text('cover_image').notNull(),
    tagline: text('tagline').notNull(),
    synopsis: text('synopsis').notNull(),
    yearPublished: integer('year_published').notNull(),
    publisher: text('publisher').notNull(),
    featured: boolean('featured').notNull().default(false),
    teaserVideoId: text('teaser_video_id'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** A paid hardcover or paperback also puts this book's ebook in the buyer's library. */
    includeEbookWithPrint: boolean('include_ebook_with_print').notNull().default(true),
    /** When a pre-ordered book's downloads open; null when the book is out (or not on pre-order). */
    releaseAt: ts('release_at'),
  },
  (t) => [
    // At most one book is on sale at a time.
    uniqueIndex('books_single_featured_uq').on(t.featured).where(sql`${t.featured}`),
    check('books_year_ck', sql`${t.yearPublished} >= 1000`),
    index('books_title_idx').on(t.title),
  ],
);

export const bookPrices = pgTable(
  'book_prices',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull().default(CURRENCY),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.format] }),
    check('book_prices_price_ck', sql`${t.price} > 0`),
    check('book_prices_format_ck', sql`${t.format} in (${ALL})`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    rating: doublePrecision('rating').notNull(),
    text: text('text').notNull(),
    author: text('author').notNull(),
    title: text('title').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('reviews_rating_ck', sql`${t.rating} between 1 and 5 and ${t.rating} * 2 = floor(${t.rating} * 2)`),
    index('reviews_book_idx').on(t.bookId),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'restrict' }),
    format: text('format').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull().default(CURRENCY),
    purchaseDate: ts('purchase_date').notNull().defaultNow(),
    status: text('status').notNull().default('completed'),
    orderReference: text('order_reference').notNull(),
    downloadCount: integer('download_count').notNull().default(0),
    maxDownloads: integer('max_downloads').notNull().default(1),
    lastDownloaded: ts('last_downloaded'),
    downloadUsed: boolean('download_used').notNull().default(false),
    shippedAt: ts('shipped_at'),
    /**
     * What the row is: 'paid' (a format bought for oneself), 'included' (the ebook that comes with a paid
     * print copy), 'gift' (a format bought for someone else: the buyer pays but does not own it) and
     * 'gift_claim' (the recipient's copy once a gift is claimed). Rows that were not paid for themselves
     * point at the purchase that paid for them, so a refund takes them along.
     */
    kind: text('kind').notNull().default('paid'),
    paidByPurchaseId: integer('paid_by_purchase_id').references((): AnyPgColumn => purchases.id, {
      onDelete: 'restrict',
    }),
    refundedAt: ts('refunded_at'),
    refundedBy: integer('refunded_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('purchases_order_reference_uq').on(t.orderReference),
    index('purchases_user_idx').on(t.userId, t.bookId),
    index('purchases_book_idx').on(t.bookId, t.format),
    index('purchases_date_idx').on(t.purchaseDate),
    index('purchases_paid_by_idx').on(t.paidByPurchaseId),
    check('purchases_kind_ck', sql`${t.kind} in ('paid', 'included', 'gift', 'gift_claim')`),
    // Rows paid for by another purchase carry no price of their own; revenue is counted on the paying row.
    check(
      'purchases_price_ck',
      sql`(${t.kind} in ('included', 'gift_claim') and ${t.price} = 0 and ${t.paidByPurchaseId} is not null) or (${t.kind} in ('paid', 'gift') and ${t.price} >= 0 and ${t.paidByPurchaseId} is null)`,
    ),
    check('purchases_format_ck', sql`${t.format} in (${ALL})`),
    check('purchases_status_ck', sql`${t.status} in ('pending', 'completed', 'shipped', 'refunded')`),
    check(
      'purchases_downloads_ck',
      sql`${t.downloadCount} >= 0 and ${t.maxDownloads} >= 0 and ${t.downloadCount} <= ${t.maxDownloads}`,
    ),
  ],
);

export const purchaseCustomerInfo = pgTable(
  'purchase_customer_info',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    stripeSessionId: text('stripe_session_id'),
    shippingAddress: jsonb('shipping_address'),
  },
  (t) => [
    uniqueIndex('purchase_customer_info_purchase_uq').on(t.purchaseId),
    uniqueIndex('purchase_customer_info_session_uq').on(t.stripeSessionId),
  ],
);

/** Discount codes the author hands out; a use is counted when a checkout that carries one is paid. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOff: integer('amount_off'),
    /** Formats the code applies to; null means every format. */
    formats: jsonb('formats').$type<string[]>(),
    expiresAt: ts('expires_at'),
    maxRedemptions: integer('max_redemptions'),
    redemptions: integer('redemptions').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discount_codes_code_uq').on(sql`lower(${t.code})`),
    check(
      'discount_codes_value_ck',
      sql`(${t.percentOff} is not null and ${t.amountOff} is null and ${t.percentOff} between 1 and 100) or (${t.amountOff} is not null and ${t.percentOff} is null and ${t.amountOff} > 0)`,
    ),
    check(
      'discount_codes_redemptions_ck',
      sql`${t.redemptions} >= 0 and (${t.maxRedemptions} is null or (${t.maxRedemptions} > 0 and ${t.redemptions} <= ${t.maxRedemptions}))`,
    ),
  ],
);

/** A payment attempt: one per checkout, fulfilled at most once whatever the provider says how often. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default(CURRENCY),
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id'),
    status: text('status').notNull().default('open'),
    purchaseId: integer('purchase_id').references(() => purchases.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    completedAt: ts('completed_at'),
    /** The code applied at checkout; its use is only counted when the checkout is paid. */
    discountCodeId: integer('discount_code_id').references(() => discountCodes.id, { onDelete: 'restrict' }),
    /** The list price before the discount (amount is what is charged); null without a code. */
    originalAmount: integer('original_amount'),
    /** The provider's payment (Stripe PaymentIntent), which refunds and charge events refer to. */
    providerPaymentId: text('provider_payment_id'),
    /** A checkout for someone else: who receives it, fulfilment turns it into a gifts row. */
    gift: jsonb('gift').$type<{ recipientName: string; recipientEmail: string; message: string | null; sendAt: string | null }>(),
    /** The reader's purchase intent (one click on Buy): a repeated request answers this session again. */
    idempotencyKey: text('idempotency_key'),
    /** The payment page the provider gave, so a repeated request for an open session goes back to it. */
    paymentUrl: text('payment_url'),
  },
  (t) => [
    uniqueIndex('checkout_sessions_provider_uq').on(t.providerSessionId),
    uniqueIndex('checkout_sessions_intent_uq').on(t.userId, t.idempotencyKey),
    index('checkout_sessions_user_idx').on(t.userId),
    check('checkout_sessions_amount_ck', sql`${t.amount} > 0`),
    check('checkout_sessions_status_ck', sql`${t.status} in ('open', 'completed', 'cancelled', 'expired')`),
  ],
);

/** Provider events already handled, so a redelivered webhook changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const digitalAssets = pgTable(
  'digital_assets',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    fileUrl: text('file_url').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    fileSizeKb: integer('file_size_kb').notNull(),
    version: text('version').notNull().default('1.0'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('digital_assets_book_format_uq').on(t.bookId, t.format),
    check('digital_assets_format_ck', sql`${t.format} in (${DIGITAL})`),
    check('digital_assets_size_ck', sql`${t.fileSizeKb} >= 0`),
  ],
);

/**
 * One row per download link issued: the record that a download was spent (it survives an admin's reset of
 * the purchase's counter, so the dashboard's total never goes down) and the state of the one transfer the
 * link may serve (decision 0019): claimed by its first request, then only resumed with Range requests for
 * the same file version, and closed once a response reaching the file's last byte has been sent.
 */
export const downloadTransfers = pgTable(
  'download_transfers',
  {
    linkId: text('link_id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    /** The file the link was signed for, so the library row can hand the same live link back to resume. */
    assetId: integer('asset_id'),
    issuedAt: ts('issued_at').notNull().defaultNow(),
    etag: text('etag'),
    size: bigint('size', { mode: 'number' }),
    startedAt: ts('started_at'),
    lastRequestAt: ts('last_request_at'),
    completedAt: ts('completed_at'),
    requests: integer('requests').notNull().default(0),
  },
  (t) => [index('download_transfers_purchase_idx').on(t.purchaseId), index('download_transfers_issued_idx').on(t.issuedAt)],
);

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    content: text('content').notNull(),
    excerpt: text('excerpt').notNull(),
    coverImage: text('cover_image'),
    publishedAt: ts('published_at').notNull().defaultNow(),
    isPublished: boolean('is_published').notNull().default(true),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name'),
    bookId: integer('book_id').references(() => books.id, { onDelete: 'set null' }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blog_posts_slug_uq').on(t.slug),
    index('blog_posts_published_idx').on(t.isPublished, t.publishedAt),
    check('blog_posts_slug_ck', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    subscribedAt: ts('subscribed_at').notNull().defaultNow(),
    unsubscribedAt: ts('unsubscribed_at'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Double opt-in (decision 0069): a new sign-up stays unconfirmed until its owner presses Confirm. */
    state: text('state').$type<SubscriberState>().notNull().default('unconfirmed'),
    source: text('source').$type<SubscriberSource>().notNull().default('unknown'),
    confirmedAt: ts('confirmed_at'),
    /** sha256 of the confirmation link's token; the token itself is only ever in the mail. */
    confirmTokenHash: text('confirm_token_hash'),
    confirmTokenExpiresAt: ts('confirm_token_expires_at'),
  },
  (t) => [
    uniqueIndex('newsletter_email_lower_uq').on(sql`lower(${t.email})`),
    uniqueIndex('newsletter_confirm_token_uq').on(t.confirmTokenHash),
    check('newsletter_state_ck', sql`${t.state} in (${formatList(SUBSCRIBER_STATES)})`),
    check('newsletter_source_ck', sql`${t.source} in (${formatList(SUBSCRIBER_SOURCES)})`),
    // unsubscribed_at is kept for the pages that read it; it can never disagree with the state.
    check('newsletter_unsubscribed_ck', sql`(${t.state} = 'unsubscribed') = (${t.unsubscribedAt} is not null)`),
  ],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
    readAt: ts('read_at'),
  },
  (t) => [
    index('contact_messages_created_idx').on(t.createdAt),
    check(
      'contact_messages_subject_ck',
      sql`${t.subject} in ('Media Inquiry', 'Speaking Engagement', 'Book Club Appearance', 'Bulk Order', 'Other')`,
    ),
  ],
);

/** Reader activity that earns points (shares, subscriptions) and other engagement. */
export const userActivities = pgTable(
  'user_activities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    platform: text('platform'),
    points: integer('points').notNull().default(0),
    // Makes "once per platform per day" and "once ever" awards a unique-key question, not a race.
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('user_activities_user_idx').on(t.userId),
    uniqueIndex('user_activities_dedupe_uq').on(t.userId, t.dedupeKey),
    check('user_activities_points_ck', sql`${t.points} >= 0`),
  ],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body'),
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** Files to attach, by file-store key: the dispatcher reads them when it sends, so no bytes sit in the row. */
    attachments: jsonb('attachments').$type<Array<{ fileKey: string; fileName: string; contentType: string }>>(),
    kind: text('kind').notNull().default('generic'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    check('mail_outbox_status_ck', sql`${t.status} in ('pending', 'sent', 'failed', 'kept')`),
  ],
);

export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

/**
 * The buyer's own copy of a purchased ebook or PDF. The fingerprint is fixed per purchase and format
 * (tracing keeps working across rebuilds); the stored file is rebuilt when the master file changes.
 */
export const personalCopies = pgTable(
  'personal_copies',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** The master file (digital_assets.file_url) this copy was built from; null until first built. */
    masterKey: text('master_key'),
    fileKey: text('file_key'),
    size: integer('size'),
    /** SHA-256 of the copy's bytes (hex), the download's ETag. */
    sha256: text('sha256'),
    builtAt: ts('built_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('personal_copies_purchase_format_uq').on(t.purchaseId, t.format),
    uniqueIndex('personal_copies_fingerprint_uq').on(t.fingerprint),
  ],
);

/** A reader's Send-to-Kindle addresses (at most three, checked by the service). */
export const kindleDevices = pgTable(
  'kindle_devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Stored lower-case. */
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('kindle_devices_user_address_uq').on(t.userId, t.address)],
);

/** Every Send to Kindle, for the daily limit and for the admin's view of the order. */
export const kindleSends = pgTable(
  'kindle_sends',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    mailId: integer('mail_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('kindle_sends_user_idx').on(t.userId, t.createdAt), index('kindle_sends_purchase_idx').on(t.purchaseId)],
);

/**
 * The job runner's table (platform/jobs.ts). A recurring job is one row whose `run_at` moves forward
 * after each run; a one-off job is a row of its own, done or failed at the end. Instances claim due rows
 * with a lease, so each run happens on one instance, and a crashed run is retried when its lease ends.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Unique per job: the name for a recurring job, the caller's key for a one-off job. */
    key: text('key').notNull(),
    payload: jsonb('payload'),
    status: text('status').notNull().default('pending'),
    /** Set for recurring jobs: the period between runs. */
    everyMs: integer('every_ms'),
    runAt: ts('run_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lockedBy: text('locked_by'),
    /** Failed attempts in a row (reset by a success). */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lastError: text('last_error'),
    lastStartedAt: ts('last_started_at'),
    lastFinishedAt: ts('last_finished_at'),
    /** What the last successful run reported (the reconciliation's counts, for instance). */
    lastResult: jsonb('last_result'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('jobs_key_uq').on(t.key),
    index('jobs_due_idx').on(t.status, t.runAt),
    check('jobs_status_ck', sql`${t.status} in ('pending', 'done', 'failed')`),
  ],
);

/** Webhooks refused or not fulfilled, for the admin's System page and the metrics. */
export const webhookFailures = pgTable(
  'webhook_failures',
  {
    id: serial('id').primaryKey(),
    reason: text('reason').notNull(),
    eventId: text('event_id'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_failures_created_idx').on(t.createdAt)],
);

/**
 * Webhooks refused for a bad signature, counted per hour rather than kept one row each: anyone can post
 * them, so a flood must neither grow a table nor push the real failures off the admin's System page.
 */
export const forgedWebhooks = pgTable('forged_webhooks', {
  hour: ts('hour').primaryKey(),
  count: integer('count').notNull(),
  lastAt: ts('last_at').notNull(),
});

/**
 * Where a reader is in a format they own, one row per reader, book and format: an EPUB CFI, a PDF page
 * or seconds of audio, and progress 0-1. updated_at is the moment of reading the device reported, so a
 * write older than the stored one can be refused (two devices never move each other backwards).
 */
export const readingPositions = pgTable(
  'reading_positions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    locator: text('locator').notNull(),
    progress: doublePrecision('progress').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId, t.format] }),
    check('reading_positions_format_ck', sql`${t.format} in (${DIGITAL})`),
    check('reading_positions_progress_ck', sql`${t.progress} >= 0 and ${t.progress} <= 1`),
  ],
);

/** Chapter marks read from an audio file's own tags, kept per asset version (the etag of its bytes). */
export const assetChapters = pgTable('asset_chapters', {
  assetId: integer('asset_id')
    .primaryKey()
    .references(() => digitalAssets.id, { onDelete: 'cascade' }),
  fileTag: text('file_tag').notNull(),
  chapters: jsonb('chapters').$type<Array<{ title: string; start: number; end: number | null }>>().notNull(),
  duration: doublePrecision('duration'),
  createdAt: createdAt(),
});

/**
 * A format bought for someone else (features/gifts). The buyer's 'gift' purchase pays for it; the
 * recipient's 'gift_claim' purchase is created when the link is claimed. Only the hash of the claim token
 * is kept; every mail carries a fresh token, so the newest link is the one that works.
 */
export const gifts = pgTable(
  'gifts',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    recipientName: text('recipient_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    message: text('message'),
    /** When the buyer asked for it to arrive; null means at once. */
    sendAt: ts('send_at'),
    tokenHash: text('token_hash'),
    /** How many mails have gone out; a send job carries the number it is, so a retried run mails nobody twice. */
    sendCount: integer('send_count').notNull().default(0),
    sentAt: ts('sent_at'),
    lastSentAt: ts('last_sent_at'),
    claimedAt: ts('claimed_at'),
    claimedBy: integer('claimed_by').references(() => users.id, { onDelete: 'set null' }),
    claimPurchaseId: integer('claim_purchase_id').references(() => purchases.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('gifts_purchase_uq').on(t.purchaseId),
    uniqueIndex('gifts_token_uq').on(t.tokenHash),
    check('gifts_message_ck', sql`${t.message} is null or char_length(${t.message}) <= 500`),
  ],
);

/** Pre-order buyers told that the book is out: one row per purchase, so moving the date mails nobody twice. */
export const releaseMails = pgTable('release_mails', {
  purchaseId: integer('purchase_id')
    .primaryKey()
    .references(() => purchases.id, { onDelete: 'cascade' }),
  mailedAt: ts('mailed_at').notNull().defaultNow(),
  /**
   * False while the buyer was told at the release that their format's file is not ready yet; the upload
   * of that file mails them "ready to download" and sets it (decision 0056).
   */
  fileReady: boolean('file_ready').notNull().default(true),
});

/**
 * "Need another download?" (issue 25 point 4): a reader whose one download is spent asks the author for
 * another; the admin grants it in one click, which gives the allowance back and mails the reader. One
 * pending request per reader, book and format.
 */
export const downloadRequests = pgTable(
  'download_requests',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer('book_id').notNull(),
    format: text('format').notNull(),
    status: text('status').notNull().default('pending'),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    grantedAt: ts('granted_at'),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('download_requests_pending_uq').on(t.userId, t.bookId, t.format).where(sql`${t.status} = 'pending'`),
    index('download_requests_status_idx').on(t.status, t.requestedAt),
    check('download_requests_status_ck', sql`${t.status} in ('pending', 'granted')`),
  ],
);
