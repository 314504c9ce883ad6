/**
 * The purchase kinds whose completed row makes its holder own the format (purchases_kind_ck lists every
 * kind): a 'gift' row is paid for but owned by its recipient through the 'gift_claim' row. It sits under
 * the features because the library, copies, checkout, bundles, reading and the newsletter all ask it, and
 * the library and copies must not import each other.
 */
export const OWNED_KINDS = ['paid', 'included', 'gift_claim', 'free', 'review_copy'] as const;
