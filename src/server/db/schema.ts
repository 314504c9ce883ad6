import { sql } from 'drizzle-orm';
import { CURRENCY } from '../../shared/constants';
import type { Audience, BroadcastStatus } from '../../shared/schemas/broadcasts';
import { SUBSCRIBER_SOURCES, SUBSCRIBER_STATES, type SubscriberSource, type SubscriberState } from '../../shared/subscribers';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
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
    /** Null for an account made by an emailed sign-in link (decision 0084) until its reader sets a password. */
    passwordHash: text('password_hash'),
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
    /** The reader asked not to be counted in the author's read-through chart (decision 0089). */
    readThroughOptOut: boolean('read_through_opt_out').notNull().default(false),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    index('users_username_skeleton_idx').on(t.usernameSkeleton),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    // The admin's reader and order searches match any part of a name or address (decision 0071).
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_created_idx').on(t.createdAt, t.id),
    uniqueIndex('users_reset_token_uq').on(t.resetTokenHash),
    check('users_role_ck', sql`${t.role} in ('user', 'admin')`),
  ],
);

/**
 * Emailed sign-in links (decision 0084). Only the token's hash is kept; a link is used by one conditional
 * UPDATE (used_at still null, not expired), so it signs in once. The address is resolved to an account when
 * the link is used; `create_account` lets that use make a passwordless account when there is none.
 */
export const loginLinks = pgTable(
  'login_links',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    email: text('email').notNull(),
    createAccount: boolean('create_account').notNull().default(false),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('login_links_token_uq').on(t.tokenHash), index('login_links_expires_idx').on(t.expiresAt)],
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
    /** The book's address in the catalogue, /books/{slug} (decision 0075). */
    slug: text('slug').notNull(),
    series: text('series'),
    seriesNumber: integer('series_number'),
  },
  (t) => [
    uniqueIndex('books_slug_uq').on(t.slug),
    check('books_slug_ck', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check('books_series_number_ck', sql`${t.seriesNumber} is null or (${t.series} is not null and ${t.seriesNumber} between 1 and 999)`),
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
    /** How a print order travels, when the author gave it at "Mark shipped" (decision 0076). */
    shippingCarrier: text('shipping_carrier'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    /**
     * What the row is: 'paid' (a format bought for oneself), 'included' (the ebook that comes with a paid
     * print copy), 'gift' (a format bought for someone else: the buyer pays but does not own it) and
     * 'gift_claim' (the recipient's copy once a gift is claimed), 'free' (the author's free book, claimed by
     * confirming an address: decision 0097) and 'review_copy' (a copy the author gave a reviewer: decision
     * 0099). Rows that were not paid for themselves (other than a free book or a review copy)
     * point at the purchase that paid for them, so a refund takes them along.
     */
    kind: text('kind').notNull().default('paid'),
    paidByPurchaseId: integer('paid_by_purchase_id').references((): AnyPgColumn => purchases.id, {
      onDelete: 'restrict',
    }),
    refundedAt: ts('refunded_at'),
    refundedBy: integer('refunded_by').references(() => users.id, { onDelete: 'set null' }),
    /** Copies of a print format shipped together (a basket line); digital rows are always 1. */
    quantity: integer('quantity').notNull().default(1),
    /** What has been given back of `price` so far (decision 0082); revenue counts `price - refunded_amount`. */
    refundedAmount: integer('refunded_amount').notNull().default(0),
  },
  (t) => [
    check('purchases_quantity_ck', sql`${t.quantity} >= 1`),
    check('purchases_refunded_amount_ck', sql`${t.refundedAmount} >= 0 and ${t.refundedAmount} <= ${t.price}`),
    uniqueIndex('purchases_order_reference_uq').on(t.orderReference),
    index('purchases_user_idx').on(t.userId, t.bookId),
    index('purchases_book_idx').on(t.bookId, t.format),
    // Newest first, one page at a time: the keyset (purchase_date, id) of the admin's order list.
    index('purchases_date_id_idx').on(t.purchaseDate, t.id),
    // An order reference is looked up by its start (decision 0071), whatever the database's collation.
    index('purchases_order_reference_prefix_idx').on(t.orderReference.op('text_pattern_ops')),
    // Sales and revenue over any span are read from this index alone (an index-only scan), not the table.
    index('purchases_sales_idx')
      .on(t.purchaseDate, t.bookId, t.format, t.price, t.refundedAmount)
      .where(sql`${t.status} in ('completed', 'shipped') and ${t.kind} in ('paid', 'gift')`),
    index('purchases_paid_by_idx').on(t.paidByPurchaseId),
    check('purchases_kind_ck', sql`${t.kind} in ('paid', 'included', 'gift', 'gift_claim', 'free', 'review_copy')`),
    // A free book is in a reader's library once, however many confirmations race (decision 0097).
    uniqueIndex('purchases_free_uq').on(t.userId, t.bookId, t.format).where(sql`${t.kind} = 'free'`),
    // Rows paid for by another purchase carry no price of their own; revenue is counted on the paying row.
    check(
      'purchases_price_ck',
      sql`(${t.kind} in ('included', 'gift_claim') and ${t.price} = 0 and ${t.paidByPurchaseId} is not null) or (${t.kind} in ('paid', 'gift') and ${t.price} >= 0 and ${t.paidByPurchaseId} is null) or (${t.kind} in ('free', 'review_copy') and ${t.price} = 0 and ${t.paidByPurchaseId} is null)`,
    ),
    check('purchases_format_ck', sql`${t.format} in (${ALL})`),
    check('purchases_status_ck', sql`${t.status} in ('pending', 'completed', 'shipped', 'refunded')`),
    // A carrier and its tracking number come together; a link only with them, and only to a web page.
    check(
      'purchases_tracking_ck',
      sql`(${t.shippingCarrier} is null) = (${t.trackingNumber} is null) and (${t.trackingUrl} is null or (${t.trackingNumber} is not null and ${t.trackingUrl} ~ '^https?://'))`,
    ),
    check(
      'purchases_downloads_ck',
      sql`${t.downloadCount} >= 0 and ${t.maxDownloads} >= 0 and ${t.downloadCount} <= ${t.maxDownloads}`,
    ),
  ],
);

/**
 * Sales and revenue per UTC day, book and format (decision 0104), kept by the trigger purchases_sales_daily
 * in the same transaction as every write to purchases, so the dashboard sums a few thousand rows instead of
 * every sale. No foreign key to books: a row only ever changes through its purchases.
 */
export const salesDaily = pgTable(
  'sales_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    bookId: integer('book_id').notNull(),
    format: text('format').notNull(),
    sales: integer('sales').notNull().default(0),
    revenue: bigint('revenue', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.bookId, t.format] })],
);

/**
 * The readers the dashboard counts as subscribed (decision 0104): a reader (not an admin, not the demo
 * reader) with an active subscription linked to the account or at its address. Kept by triggers on users
 * and newsletter_subscribers, so the dashboard no longer matches every reader against every subscriber.
 */
export const subscribedReaders = pgTable('subscribed_readers', {
  userId: integer('user_id').primaryKey(),
});

/**
 * Running row counts of tables too large to count per request (decision 0104): `user_activities`,
 * `download_transfers`, `subscribed_readers`, the readers, and the subscribers (all, active and unconfirmed),
 * each kept by the statement triggers of its table in the writing transaction.
 */
export const rowCounts = pgTable('row_counts', {
  name: text('name').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

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
    index('purchase_customer_info_name_trgm_idx').using('gin', t.customerName.op('gin_trgm_ops')),
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
    index('discount_codes_code_idx').on(t.code, t.id),
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

/**
 * A signed-in reader's basket: one line per format of a book. The price the reader saw when adding is
 * kept, so a price changed since is named at checkout instead of being charged silently (decision 0073).
 */
export const basketItems = pgTable(
  'basket_items',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // A format's line names its book and format; a bundle's line names the bundle instead (decision 0095).
    bookId: integer('book_id').references(() => books.id, { onDelete: 'cascade' }),
    format: text('format'),
    bundleId: integer('bundle_id').references(() => bundles.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    /** The unit price the reader saw; for a bundle, their price for it (less what they paid for parts they own). */
    unitPrice: integer('unit_price').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('basket_items_user_format_uq').on(t.userId, t.bookId, t.format),
    uniqueIndex('basket_items_user_bundle_uq').on(t.userId, t.bundleId).where(sql`${t.bundleId} is not null`),
    check('basket_items_quantity_ck', sql`${t.quantity} between 1 and 10`),
    check('basket_items_format_ck', sql`${t.format} in ('hardcover', 'paperback', 'ebook', 'audiobook')`),
    check(
      'basket_items_kind_ck',
      sql`(${t.bundleId} is null and ${t.bookId} is not null and ${t.format} is not null) or (${t.bundleId} is not null and ${t.bookId} is null and ${t.format} is null and ${t.quantity} = 1)`,
    ),
  ],
);

/** Formats of one or more books sold together at one price (decision 0083). */
export const bundles = pgTable(
  'bundles',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull().default(CURRENCY),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('bundles_price_ck', sql`${t.price} >= 30`)],
);

export const bundleItems = pgTable(
  'bundle_items',
  {
    bundleId: integer('bundle_id')
      .notNull()
      .references(() => bundles.id, { onDelete: 'cascade' }),
    // A deleted book leaves the bundles that held it (they are then refused at checkout as changed).
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bundleId, t.bookId, t.format] }),
    index('bundle_items_book_idx').on(t.bookId),
    check('bundle_items_format_ck', sql`${t.format} in ('hardcover', 'paperback', 'ebook', 'audiobook')`),
  ],
);

/**
 * One payment for several lines (a basket checkout, decision 0073). Its state is its checkout session's;
 * the lines say what was bought, at what price, and which purchase row each became once paid.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    checkoutSessionId: text('checkout_session_id')
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    reference: text('reference').notNull(),
    currency: text('currency').notNull().default(CURRENCY),
    /** List prices times quantities, before any discount. */
    subtotal: integer('subtotal').notNull(),
    /** What is charged: the sum of the lines' amounts. */
    total: integer('total').notNull(),
    /** ISO 3166-1 alpha-2 destination of the print lines, when the reader gave one. */
    shippingCountry: text('shipping_country'),
    /** The shipping line's charge (0 for a digital order or free shipping); part of total (decision 0081). */
    shipping: integer('shipping').notNull().default(0),
    /** The sum of the lines' tax (decision 0080): inside total when prices include tax, added to it otherwise. */
    tax: integer('tax').notNull().default(0),
    /** Whether the prices charged included the tax (the site setting when the order was made). */
    pricesIncludeTax: boolean('prices_include_tax').notNull().default(true),
    /** The country whose rates taxed the order (ISO 3166-1 alpha-2); null when no country was known. */
    taxCountry: text('tax_country'),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
  },
  (t) => [
    uniqueIndex('orders_checkout_session_uq').on(t.checkoutSessionId),
    uniqueIndex('orders_reference_uq').on(t.reference),
    index('orders_user_idx').on(t.userId),
    // What is charged never passes the list prices plus shipping plus any tax added on top.
    check('orders_amounts_ck', sql`${t.total} > 0 and ${t.subtotal} + ${t.shipping} + ${t.tax} >= ${t.total}`),
    check('orders_extras_ck', sql`${t.shipping} >= 0 and ${t.tax} >= 0`),
  ],
);

/**
 * A line of an order. 'item' lines name a format of a book; the kind leaves room for lines that name no
 * book (shipping), and tax is kept per line so a refund can give one line back whole.
 */
export const orderLines = pgTable(
  'order_lines',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind').notNull().default('item'),
    bookId: integer('book_id').references(() => books.id, { onDelete: 'restrict' }),
    format: text('format'),
    /** The name the payment page and receipt show, as it was when the order was made. */
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    /** List price of one unit. */
    unitPrice: integer('unit_price').notNull(),
    /** Charged for the whole line (after any discount), tax included when tax is. */
    amount: integer('amount').notNull(),
    tax: integer('tax').notNull().default(0),
    /** The rate that gave the tax, in hundredths of a percent (2000 = 20%); null before tax existed. */
    taxRate: integer('tax_rate'),
    /** The purchase row the line became once paid (its library entry or shipping-queue row). */
    purchaseId: integer('purchase_id').references(() => purchases.id, { onDelete: 'set null' }),
    /** The bundle this line is a part of (decision 0095): paid, it leaves the reader's basket. */
    bundleId: integer('bundle_id').references(() => bundles.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('order_lines_position_uq').on(t.orderId, t.position),
    uniqueIndex('order_lines_purchase_uq').on(t.purchaseId),
    check('order_lines_kind_ck', sql`${t.kind} in ('item', 'shipping')`),
    check('order_lines_shipping_ck', sql`${t.kind} <> 'shipping' or (${t.bookId} is null and ${t.format} is null)`),
    check('order_lines_tax_rate_ck', sql`${t.taxRate} is null or ${t.taxRate} between 0 and 10000`),
    check(
      'order_lines_item_ck',
      sql`${t.kind} <> 'item' or (${t.bookId} is not null and ${t.format} in ('hardcover', 'paperback', 'ebook', 'audiobook'))`,
    ),
    check('order_lines_amounts_ck', sql`${t.quantity} between 1 and 10 and ${t.unitPrice} > 0 and ${t.amount} > 0 and ${t.tax} >= 0`),
  ],
);

/**
 * Each refund of a paid row, whole or part (decision 0082): made from Admin Orders or recorded from the
 * payment provider's charge.refunded. The sum of a row's refunds is its `refunded_amount`.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    /** 'admin' (Admin Orders) or 'provider' (a refund made at the payment provider). */
    source: text('source').notNull(),
    /** The whole remaining amount of the row, which took its formats back. */
    whole: boolean('whole').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('refunds_purchase_idx').on(t.purchaseId, t.id),
    check('refunds_amount_ck', sql`${t.amount} >= 0`),
    check('refunds_source_ck', sql`${t.source} in ('admin', 'provider')`),
  ],
);

/**
 * The author's tax rates for the local provider (decision 0080): a rate per country and format, in
 * hundredths of a percent. A sale with no row here is taxed at the default rate of the tax setting.
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    format: text('format').notNull(),
    rate: integer('rate').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_rates_country_format_uq').on(t.country, t.format),
    check('tax_rates_rate_ck', sql`${t.rate} between 0 and 10000`),
    check('tax_rates_format_ck', sql`${t.format} in ('hardcover', 'paperback', 'ebook', 'audiobook')`),
    check('tax_rates_country_ck', sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

/**
 * Where print ships and what it costs (decision 0081): a zone's countries, the price of the first print
 * copy and of each further one, and an optional order value from which shipping is free.
 */
export const shippingZones = pgTable(
  'shipping_zones',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    countries: jsonb('countries').$type<string[]>().notNull(),
    firstItem: integer('first_item').notNull(),
    additionalItem: integer('additional_item').notNull(),
    freeOver: integer('free_over'),
    createdAt: createdAt(),
  },
  (t) => [
    check('shipping_zones_prices_ck', sql`${t.firstItem} >= 0 and ${t.additionalItem} >= 0 and (${t.freeOver} is null or ${t.freeOver} > 0)`),
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
    index('blog_posts_admin_order_idx').on(t.publishedAt, t.id),
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
    index('newsletter_subscribed_idx').on(t.subscribedAt, t.id),
    index('newsletter_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('newsletter_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    // The subscription linked to a reader, looked up when the dashboard's set of subscribed readers is kept.
    index('newsletter_user_idx').on(t.userId),
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
    index('contact_messages_created_idx').on(t.createdAt, t.id),
    // The unread messages a page at a time, without reading the ones already read (their count is a running total).
    index('contact_messages_unread_idx').on(t.createdAt, t.id).where(sql`${t.readAt} is null`),
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
    // The claim walks pending rows in id order: with a broadcast's thousands of sent rows in front of them,
    // an index of the pending ones alone keeps each claim from reading past the sent ones.
    index('mail_outbox_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`),
    // 'suppressed': a newsletter mail whose address left (or bounced) after it was queued; never sent.
    check('mail_outbox_status_ck', sql`${t.status} in ('pending', 'sent', 'failed', 'kept', 'suppressed')`),
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
 * The job runner's table (platform/operations/jobs.ts). A recurring job is one row whose `run_at` moves forward
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
 * The author's correction of a book's read <-> listen pairing (decision 0088): e-book spine indexes paired
 * with audiobook chapter indexes. Without a row the pairing is made from the files by order and title.
 */
export const chapterPairings = pgTable('chapter_pairings', {
  bookId: integer('book_id')
    .primaryKey()
    .references(() => books.id, { onDelete: 'cascade' }),
  pairs: jsonb('pairs').$type<Array<{ ebook: number; audiobook: number }>>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
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

/**
 * A mail to a part of the newsletter's confirmed subscribers (decision 0077). The body is sanitized post
 * HTML; `listed_through` is the keyset cursor of the recipient listing, so a resumed send lists on from it.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    subject: text('subject').notNull(),
    previewText: text('preview_text').notNull().default(''),
    body: text('body').notNull(),
    audience: jsonb('audience').$type<Audience>().notNull(),
    postId: integer('post_id').references(() => blogPosts.id, { onDelete: 'set null' }),
    status: text('status').$type<BroadcastStatus>().notNull().default('draft'),
    sendAt: ts('send_at'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    listedThrough: integer('listed_through').notNull().default(0),
    listed: boolean('listed').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('broadcasts_status_ck', sql`${t.status} in ('draft', 'scheduled', 'sending', 'sent')`),
    check('broadcasts_send_at_ck', sql`${t.status} = 'draft' or ${t.sendAt} is not null`),
  ],
);

/**
 * One row per address per broadcast (the primary key): listing twice, or two instances listing at once,
 * cannot make a second copy. A row is 'queued', then 'handed' to the outbox (with its mail) in the same
 * transaction that queues the mail, or 'suppressed' when the address left before its turn.
 */
export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    status: text('status').notNull().default('queued'),
    mailId: integer('mail_id'),
    bounced: boolean('bounced').notNull().default(false),
    /** Set when the address left through this mail's own unsubscribe link. */
    unsubscribedAt: ts('unsubscribed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.subscriberId] }),
    index('broadcast_recipients_status_idx').on(t.broadcastId, t.status),
    index('broadcast_recipients_mail_idx').on(t.mailId),
    check('broadcast_recipients_status_ck', sql`${t.status} in ('queued', 'handed', 'suppressed')`),
  ],
);

/**
 * Verified reviews (decision 0085): one per reader per book (the unique key), written by a reader who owns
 * the book. A review is 'pending' until the author approves or hides it; an edit sends it back to 'pending',
 * so what the home page shows is always text the author has read. The author's public answer sits beside it.
 */
export const readerReviews = pgTable(
  'reader_reviews',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('pending'),
    answer: text('answer'),
    answeredAt: ts('answered_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reader_reviews_book_user_uq').on(t.bookId, t.userId),
    index('reader_reviews_book_status_idx').on(t.bookId, t.status),
    index('reader_reviews_status_idx').on(t.status, t.id),
    check('reader_reviews_rating_ck', sql`${t.rating} between 1 and 5`),
    check('reader_reviews_status_ck', sql`${t.status} in ('pending', 'approved', 'hidden')`),
  ],
);

/** A reader who said "Not now" to "Enjoyed it?" at the end of a book: they are not asked again. */
export const reviewPromptDismissals = pgTable(
  'review_prompt_dismissals',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    dismissedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bookId] })],
);

/**
 * Clicks on a broadcast's links through the `/r/` redirect (decision 0090): one counter per broadcast and
 * link, not per reader, so the count says which link was followed and never who followed it. `url_hash`
 * (sha256 of the target) keys the row, as a link can be longer than an index entry may be.
 */
export const broadcastClicks = pgTable(
  'broadcast_clicks',
  {
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    urlHash: text('url_hash').notNull(),
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
    lastClickedAt: ts('last_clicked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.broadcastId, t.urlHash] })],
);

/**
 * "Tell owners about this edition" (decision 0091): one row per owner told about a replaced master (book,
 * format, the version it became). The key makes a resumed or repeated notice job tell nobody twice; the row
 * keeps "Updated" on the owner's library row until their next download of that format (`downloaded_at`).
 */
export const editionNotices = pgTable(
  'edition_notices',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    version: text('version').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    notifiedAt: ts('notified_at').notNull().defaultNow(),
    downloadedAt: ts('downloaded_at'),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.format, t.version, t.userId] }),
    index('edition_notices_owner_idx').on(t.userId, t.bookId, t.format),
  ],
);

/**
 * A reader's private podcast feed of an audiobook they own (decision 0086). The address carries the row's
 * id and an HMAC of its nonce, so the database alone does not give the address away. Regenerating retires
 * the row (retired_at) and makes a new one; an old address then answers 410.
 */
export const audiobookFeeds = pgTable(
  'audiobook_feeds',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    createdAt: createdAt(),
    retiredAt: ts('retired_at'),
    /** Set the first day the feed is fetched from more addresses than a household uses; the author sees it. */
    flaggedAt: ts('flagged_at'),
    flaggedAddresses: integer('flagged_addresses'),
  },
  (t) => [
    uniqueIndex('audiobook_feeds_live_uq').on(t.userId, t.bookId).where(sql`${t.retiredAt} is null`),
    index('audiobook_feeds_flagged_idx').on(t.flaggedAt),
  ],
);

/** The distinct addresses (keyed hashes, never the address) a feed was fetched from, per UTC day. */
export const audiobookFeedAddresses = pgTable(
  'audiobook_feed_addresses',
  {
    feedId: integer('feed_id')
      .notNull()
      .references(() => audiobookFeeds.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    addressHash: text('address_hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.day, t.addressHash] })],
);

/**
 * A reader's OPDS catalogue of their library (decision 0087): one row per reader while it is on. The token
 * address is the row's id and an HMAC of its nonce; the app password is kept only as a keyed hash (it is
 * random and long, so a fast hash is enough). Turning it off deletes the row; regenerating replaces both.
 */
export const opdsCatalogues = pgTable('opds_catalogues', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  nonce: text('nonce').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
});

/**
 * A format the author gives to readers who join the Thriller Circle (decision 0097), offered on its landing
 * page /free/{slug} while active.
 */
export const freeBooks = pgTable(
  'free_books',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    format: text('format').notNull(),
    slug: text('slug').notNull(),
    pitch: text('pitch').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('free_books_slug_uq').on(t.slug),
    check('free_books_slug_ck', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check('free_books_format_ck', sql`${t.format} in (${DIGITAL})`),
  ],
);

/**
 * Each request for a free book: the address, where the visitor came from (`?source=`) and the hash of the
 * confirmation link's token. The link is used by one conditional UPDATE (confirmed_at still null, not
 * expired); the reader and the library row it gave are kept for the author's figures.
 */
export const freeBookClaims = pgTable(
  'free_book_claims',
  {
    id: serial('id').primaryKey(),
    freeBookId: integer('free_book_id')
      .notNull()
      .references(() => freeBooks.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    source: text('source'),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    confirmedAt: ts('confirmed_at'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    purchaseId: integer('purchase_id').references(() => purchases.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('free_book_claims_token_uq').on(t.tokenHash),
    index('free_book_claims_book_idx').on(t.freeBookId, t.source),
    index('free_book_claims_user_idx').on(t.userId),
  ],
);

/**
 * A review-copy campaign (decision 0099): one book and format offered to reviewers on /review-copies/{slug}
 * between two dates, up to a number of copies.
 */
export const reviewCampaigns = pgTable(
  'review_campaigns',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'restrict' }),
    format: text('format').notNull(),
    slug: text('slug').notNull(),
    opensAt: ts('opens_at').notNull(),
    closesAt: ts('closes_at').notNull(),
    copies: integer('copies').notNull(),
    question: text('question').notNull(),
    autoApprove: boolean('auto_approve').notNull().default(false),
    reminderDays: integer('reminder_days').notNull(),
    withdrawnAt: ts('withdrawn_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_campaigns_slug_uq').on(t.slug),
    check('review_campaigns_format_ck', sql`${t.format} in ('ebook', 'pdf')`),
    check('review_campaigns_dates_ck', sql`${t.closesAt} > ${t.opensAt}`),
    check('review_campaigns_numbers_ck', sql`${t.copies} >= 1 and ${t.reminderDays} >= 1`),
  ],
);

/**
 * One application to a campaign. Approval fills `user_id` (an account made without a password when the
 * address has none) and `purchase_id` (the reader's personal copy); withdrawing an unread copy deletes that
 * row, which empties `purchase_id`.
 */
export const reviewApplications = pgTable(
  'review_applications',
  {
    id: serial('id').primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => reviewCampaigns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    reviewsWhere: text('reviews_where').notNull(),
    answer: text('answer').notNull(),
    profileLinks: jsonb('profile_links').$type<string[]>().notNull(),
    status: text('status').notNull().default('pending'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    purchaseId: integer('purchase_id').references(() => purchases.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    lastRemindedAt: ts('last_reminded_at'),
    remindersSent: integer('reminders_sent').notNull().default(0),
    reviewPostedAt: ts('review_posted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    // One application per address and campaign, whatever the address's case.
    uniqueIndex('review_applications_email_uq').on(t.campaignId, sql`lower(${t.email})`),
    index('review_applications_email_idx').on(sql`lower(${t.email})`),
    index('review_applications_user_idx').on(t.userId),
    // The reminder job reads only approved copies still waiting for a review.
    index('review_applications_waiting_idx').on(t.status).where(sql`${t.status} = 'approved' and ${t.reviewPostedAt} is null`),
    check('review_applications_status_ck', sql`${t.status} in ('pending', 'approved', 'declined', 'withdrawn')`),
  ],
);

/** The links to reviews a reader posted for their review copy. */
export const reviewLinks = pgTable(
  'review_links',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => reviewApplications.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('review_links_url_uq').on(t.applicationId, t.url)],
);
