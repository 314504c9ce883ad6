/**
 * The newsletter rule (docs/PRODUCT.md, Newsletter): non-space text, an @, non-space text, a dot and non-space text.
 * Kept free of zod so the home page can check an address without loading the schema library.
 */
export const NEWSLETTER_EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
