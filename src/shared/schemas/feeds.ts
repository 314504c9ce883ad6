import { z } from 'zod';

/** Texts of the private podcast feed (decision 0086) and the OPDS catalogue (decision 0087). */
export const FEED_MESSAGES = {
  feedReady: 'Your private podcast feed address is ready. Add it to your podcast app; do not share it.',
  feedRegenerated: 'A new feed address is ready. The old address no longer works.',
  feedGone: 'This podcast feed is no longer available.',
  feedUnknown: 'There is no podcast feed at this address.',
  episodeExpired: 'This episode link has expired. Refresh the feed in your podcast app.',
  opdsOn: 'Your reading-app catalogue is on. The password is shown only now.',
  opdsRegenerated: 'A new catalogue address and password are ready. The old ones no longer work.',
  opdsOff: 'Your reading-app catalogue is off.',
  opdsUnauthorized: 'Sign in with your user name and your reading-app password.',
} as const;

/** GET/POST /api/library/{bookId}/audiobook/feed-link. */
export const feedLinkSchema = z.object({
  success: z.literal(true),
  feedUrl: z.string(),
  message: z.string(),
});
export type FeedLink = z.infer<typeof feedLinkSchema>;

/** The podcast feeds fetched from more addresses in a day than a household uses (admin). */
export const flaggedFeedSchema = z.object({
  id: z.number(),
  flaggedAt: z.string(),
  addresses: z.number(),
  retiredAt: z.string().nullable(),
  bookTitle: z.string(),
  userId: z.number(),
  username: z.string(),
  email: z.string(),
});
export const flaggedFeedsSchema = z.object({ feeds: z.array(flaggedFeedSchema) });
export type FlaggedFeed = z.infer<typeof flaggedFeedSchema>;

/** GET/POST/DELETE /api/library/opds: whether the reader's catalogue is on, and how reading apps reach it. */
export const opdsStateSchema = z.object({
  enabled: z.boolean(),
  /** The address with the opaque token (null while off). */
  catalogueUrl: z.string().nullable(),
  /** The address for HTTP Basic with the user name and the app password. */
  basicUrl: z.string(),
  username: z.string(),
  message: z.string().optional(),
});
/** Only the answer that turns it on or regenerates it carries the app password, once. */
export const opdsEnabledSchema = opdsStateSchema.extend({ password: z.string(), message: z.string() });
export type OpdsState = z.infer<typeof opdsStateSchema>;
export type OpdsEnabled = z.infer<typeof opdsEnabledSchema>;
