import { z } from 'zod';
import { ALL_FORMATS } from '../constants';
import { isoDateTime, lineText, MAX_DB_ID, text } from './common';

/** The words of the broadcast routes' refusals, shared by the API, its tests and the admin page. */
export const BROADCAST_MESSAGES = {
  subject: 'Subject is required',
  subjectLong: 'Subject must be at most 200 characters',
  previewLong: 'Preview text must be at most 200 characters',
  body: 'Body is required',
  audience: 'Choose an audience',
  book: 'Choose a book',
  format: 'Choose a format',
  sendAt: 'sendAt must be an ISO 8601 date-time with a time zone',
  sendAtPast: 'Choose a time in the future, or send now',
  notFound: 'Broadcast not found',
  post: 'Post not found',
  bookMissing: 'Book not found',
  notDraft: 'Only a draft can be edited or sent. Cancel the scheduled send first.',
  notScheduled: 'Only a scheduled broadcast can be cancelled',
  emptyAudience: 'Nobody is in this audience yet',
} as const;

const bookId = z
  .number({ message: BROADCAST_MESSAGES.book })
  .int(BROADCAST_MESSAGES.book)
  .positive(BROADCAST_MESSAGES.book)
  .max(MAX_DB_ID, BROADCAST_MESSAGES.book);

/**
 * Who a broadcast goes to. Every audience is a part of the confirmed subscribers (decision 0077): owners and
 * pre-order buyers are reached only when they have confirmed a subscription, so nobody is sent news they
 * did not ask for.
 */
export const audienceSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('all') }),
    z.object({ kind: z.literal('owners'), bookId, format: z.enum(ALL_FORMATS, { message: BROADCAST_MESSAGES.format }) }),
    z.object({ kind: z.literal('pre-order'), bookId }),
    z.object({ kind: z.literal('no-purchase') }),
  ],
  { message: BROADCAST_MESSAGES.audience },
);
export type Audience = z.infer<typeof audienceSchema>;
export type AudienceKind = Audience['kind'];

export const AUDIENCE_LABELS: Record<AudienceKind, string> = {
  all: 'All confirmed subscribers',
  owners: 'Readers who own a format of a book',
  'pre-order': 'Pre-order buyers of a book',
  'no-purchase': 'Confirmed subscribers who have bought nothing',
};

export const broadcastInputSchema = z.object({
  subject: lineText({ message: BROADCAST_MESSAGES.subject })
    .trim()
    .min(1, BROADCAST_MESSAGES.subject)
    .max(200, BROADCAST_MESSAGES.subjectLong),
  previewText: lineText().trim().max(200, BROADCAST_MESSAGES.previewLong).default(''),
  body: text({ message: BROADCAST_MESSAGES.body }).trim().min(1, BROADCAST_MESSAGES.body).max(200_000),
  audience: audienceSchema,
  /** The blog post this broadcast was made from ("Send this post"), if any. */
  postId: z.number().int().positive().max(MAX_DB_ID).nullable().default(null),
});
export type BroadcastInput = z.input<typeof broadcastInputSchema>;

export const sendBroadcastSchema = z.object({
  /** Absent: send now. */
  sendAt: isoDateTime(BROADCAST_MESSAGES.sendAt).optional(),
});

export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'sent'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

export const broadcastCountsSchema = z.object({
  recipients: z.number().int(),
  /** Handed to the mail server. */
  sent: z.number().int(),
  /** Still in the outbox. */
  waiting: z.number().int(),
  failed: z.number().int(),
  bounced: z.number().int(),
  /** Not mailed because the address left (or bounced) between listing and sending. */
  suppressed: z.number().int(),
  /** Left through this mail's own unsubscribe link. */
  unsubscribed: z.number().int(),
});
export type BroadcastCounts = z.infer<typeof broadcastCountsSchema>;

export const broadcastSchema = z.object({
  id: z.number().int(),
  subject: text(),
  previewText: text(),
  body: text(),
  audience: audienceSchema,
  postId: z.number().int().nullable(),
  status: z.enum(BROADCAST_STATUSES),
  sendAt: text().nullable(),
  startedAt: text().nullable(),
  finishedAt: text().nullable(),
  updatedAt: text(),
  /** How many addresses the audience holds now (before sending), or was sent to (once listed). */
  audienceSize: z.number().int(),
  counts: broadcastCountsSchema,
  /** Every web link of the mail, in the order it appears, with the clicks it has had (decision 0090). */
  links: z.array(z.object({ url: text(), clicks: z.number().int() })),
});
export type Broadcast = z.infer<typeof broadcastSchema>;
export const broadcastSummarySchema = broadcastSchema.omit({ body: true, counts: true, audienceSize: true, links: true });
export type BroadcastSummary = z.infer<typeof broadcastSummarySchema>;

export const suppressionSchema = z.object({
  email: text(),
  state: z.enum(['unsubscribed', 'bounced', 'complained']),
  since: text().nullable(),
});
export type Suppression = z.infer<typeof suppressionSchema>;

/** The admin records a complaint (a feedback-loop report) or a bounce the mail server reported later. */
export const suppressInputSchema = z.object({
  email: text().trim().min(1, 'Email is required').max(254),
  state: z.enum(['bounced', 'complained'], { message: 'State must be bounced or complained' }),
});

/** The pages a link in a broadcast leads to when it cannot go on to its target (decision 0090). */
export const CLICK_MESSAGES = {
  unknownTitle: 'Link not found',
  unknown: 'This link belongs to no newsletter we have sent. Please use the link from the mail itself.',
  invalidTitle: 'This link cannot be followed',
  invalid:
    'This link has been changed since we sent it, or leads somewhere our mail did not. We only send readers on to the pages the mail itself named.',
} as const;

/** `/r/{broadcast}/{signature}?u={target}`. Shape only: whether the pair verifies is the route's to decide. */
export const clickParamsSchema = z.object({ id: z.coerce.number().int().positive().max(MAX_DB_ID), signature: z.string().max(100) });
export const clickQuerySchema = z.object({ u: text().max(8000).default('') });

/** Why the admin page counts no opens, in the page's own words. */
export const NO_OPEN_TRACKING_NOTE =
  'Opens are not counted. Counting them would mean hiding a tiny picture in every mail that reports back when it is shown: it tells us about a reader without asking, and it is not even reliable, as many mail programs load pictures in advance or not at all. Clicks are counted per link, never per reader.';
