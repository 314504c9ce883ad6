/** Business constants (docs/PRODUCT.md, Constants). Shared by server and client. */

export const PURCHASE_FORMATS = ['hardcover', 'paperback', 'ebook', 'audiobook'] as const;
export type PurchaseFormat = (typeof PURCHASE_FORMATS)[number];

/** Formats a library item or digital asset may carry; the library also knows pdf. */
export const DIGITAL_FORMATS = ['ebook', 'audiobook', 'pdf'] as const;
export type DigitalFormat = (typeof DIGITAL_FORMATS)[number];
export const PHYSICAL_FORMATS = ['hardcover', 'paperback'] as const;

/** Every format the database accepts on a purchase, price or asset row. */
export const ALL_FORMATS = ['hardcover', 'paperback', 'ebook', 'audiobook', 'pdf'] as const;
export type AnyFormat = (typeof ALL_FORMATS)[number];

export function isDigitalFormat(format: string): format is DigitalFormat {
  return (DIGITAL_FORMATS as readonly string[]).includes(format);
}

/** List prices in minor units (pence). The server's price table is seeded from these. */
export const DEFAULT_PRICES: Record<PurchaseFormat, number> = {
  hardcover: 2499,
  paperback: 1699,
  ebook: 999,
  audiobook: 1499,
};

/** How a format is named to readers (receipts, payment page, library rows, admin figures). */
export const FORMAT_LABELS: Record<AnyFormat, string> = {
  hardcover: 'Hardcover',
  paperback: 'Paperback',
  ebook: 'E-Book',
  audiobook: 'Audiobook',
  pdf: 'PDF',
};
export const formatLabel = (format: string) => FORMAT_LABELS[format as AnyFormat] ?? format;

export const CURRENCY = 'GBP';
export const CURRENCY_SYMBOL = '£';

export function formatPrice(minorUnits: number): string {
  const sign = minorUnits < 0 ? '-' : '';
  return `${sign}${CURRENCY_SYMBOL}${(Math.abs(minorUnits) / 100).toFixed(2)}`;
}

export const BULK_ORDER_MIN_COPIES = 10;
export const PURCHASE_INTENT_LIFETIME_MS = 10 * 60 * 1000;
export const AUTH_POLL_MS = 30_000;
export const AUTH_STALE_MS = 10_000;
export const FLOATING_BAR_AUTH_CACHE_MS = 300_000;
export const LIBRARY_QUERY_RETRIES = 2;
export const DEFAULT_MAX_DOWNLOADS = 1;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
export const RESET_LINK_VALIDITY_MS = 60 * 60 * 1000;
/** An emailed sign-in link works once, within this time (decision 0084). */
export const LOGIN_LINK_VALIDITY_MS = 15 * 60 * 1000;
export const LOGIN_REDIRECT_DELAY_MS = 1000;
export const RESET_SUCCESS_REDIRECT_MS = 5000;
export const RESET_VALIDATION_MS = 1000;
export const SYNOPSIS_MIN_LENGTH = 10;
export const YEAR_MIN = 1000;
export const BLOG_TEASER_COUNT = 3;
/** Posts on one page of /blog: four rows of the three-column grid (two columns on tablets, one on phones). */
export const BLOG_PAGE_SIZE = 12;
/** The most posts one read of GET /api/blog may ask for (`limit`). */
export const BLOG_LIST_MAX_LIMIT = 50;
export const COPIED_INDICATOR_MS = 2000;
export const WAITLIST_FOCUS_DELAY_MS = 800;
export const SHARE_POPUP = { width: 600, height: 400 } as const;
export const TOAST = {
  limit: 1,
  durationMs: 5000,
  removeDelayMs: 1_000_000,
  swipeThresholdPx: 50,
  hotkey: 'F8',
} as const;
export const TOOLTIP = { delayMs: 700, skipDelayMs: 300 } as const;
export const EARLY_READER_RATING = 4.8;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const PURCHASE_STATUSES = ['pending', 'completed', 'shipped', 'refunded'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const SHARE_PLATFORMS = ['x', 'facebook', 'linkedin'] as const;
export type SharePlatform = (typeof SHARE_PLATFORMS)[number];

/** Points a signed-in reader earns. Documented in the README. */
export const POINTS = { share: 10, subscribe: 50 } as const;

/** Local storage keys used by the browser client. */
export const STORAGE_KEYS = { authToken: 'auth-token', purchaseIntent: 'purchase-intent' } as const;

/** The free sample's last words, on its last page and in the reader (links to the purchase section). */
export const SAMPLE_END_TEXT = 'Buy to keep reading';


/** The home page links to the catalogue (/books) once there is more to see than its own two books. */
export const CATALOGUE_LINK_MIN_BOOKS = 3;
