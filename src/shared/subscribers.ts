/**
 * Newsletter subscribers' states and sources (decision 0069). Kept out of the constants every page loads:
 * the labels serve the admin area, the lists the server and the subscribe form's schema.
 */
/** Where a newsletter address stands (decision 0069). Only 'confirmed' addresses are to be mailed news. */
export const SUBSCRIBER_STATES = ['unconfirmed', 'confirmed', 'unsubscribed', 'bounced', 'complained'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];
export const SUBSCRIBER_STATE_LABELS: Record<SubscriberState, string> = {
  unconfirmed: 'Unconfirmed',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Complained',
};
/**
 * Where a sign-up came from. 'import' and 'unknown' are never sent by a form: they name rows added otherwise;
 * 'free-book' names readers who confirmed a free-book claim (decision 0097).
 */
export const SUBSCRIBER_SOURCES = ['home', 'footer', 'checkout', 'import', 'unknown', 'free-book'] as const;
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number];
/** The sources a sign-up form may name in POST /api/subscribe. */
export const SIGNUP_SOURCES = ['home', 'footer', 'checkout'] as const satisfies readonly SubscriberSource[];
export const SUBSCRIBER_SOURCE_LABELS: Record<SubscriberSource, string> = {
  home: 'Home page',
  footer: 'Footer',
  checkout: 'Checkout',
  import: 'Import',
  unknown: 'Unknown',
  'free-book': 'Free book',
};
/** How long the confirmation link in the welcome mail works. */
export const SUBSCRIBE_CONFIRM_VALIDITY_MS = 14 * 24 * 60 * 60 * 1000;
