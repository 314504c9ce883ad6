/**
 * Review copies (issue 31 point 3, decision 0099): the author runs a campaign for one book and format,
 * readers apply on /review-copies/{slug}, approved readers get a personal copy and post links to their
 * reviews. One schema validates each form in the browser and its request on the server.
 */
import { z } from 'zod';
import { SLUG_PATTERN } from '../slug';
import { EMAIL_PATTERN, MAX_DB_ID, dbId, isoDateTime, lineText, paragraphText, text } from './common';

/** The formats a review copy can be: the ones that carry their reader's mark (Trace a Copy). */
export const REVIEW_COPY_FORMATS = ['ebook', 'pdf'] as const;
export const REVIEW_PROFILE_LINKS_MAX = 3;
export const REVIEW_LINKS_MAX = 10;
export const APPLICATION_STATUSES = ['pending', 'approved', 'declined', 'withdrawn'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const CAMPAIGN_STATES = ['upcoming', 'open', 'closed', 'full'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

export const REVIEW_COPY_MESSAGES = {
  bookId: 'Choose a book',
  format: 'A review copy is an e-book or a PDF',
  slug: 'The address is lower-case letters, numbers and single dashes, at most 80 characters',
  slugTaken: 'Another campaign already uses this address',
  opensAt: 'Give the date the campaign opens',
  closesAt: 'Give the date the campaign closes',
  closesBeforeOpen: 'The campaign must close after it opens',
  copies: 'The number of copies is a whole number from 1 to 10000',
  question: 'Ask applicants a question of at most 500 characters',
  reminderDays: 'Remind every 1 to 90 days',
  campaignNotFound: 'Review campaign not found',
  bookNotFound: 'Book not found',
  name: 'Please enter your name (at most 100 characters)',
  email: 'Please enter a valid email address',
  reviewsWhere: 'Please tell us where you review (at most 200 characters)',
  answer: 'Please answer the question (at most 2000 characters)',
  profileLink: 'Each profile link must be a web address starting with http:// or https://',
  profileLinks: `Give at most ${REVIEW_PROFILE_LINKS_MAX} profile links`,
  notOpenYet: 'Applications for this review copy are not open yet.',
  closed: 'Applications for this review copy are closed.',
  full: 'All review copies of this campaign have been given out.',
  alreadyApplied: 'You have already applied for this review copy with this email address.',
  applied: 'Thank you for applying! We will email you when the author has decided.',
  approvedAtOnce: 'You are approved! Check your email: a link to sign in and read your copy is on its way.',
  ids: 'Choose at least one application (at most 500)',
  decision: 'The decision is approve or decline',
  reviewUrl: 'Please enter the web address of your review, starting with http:// or https://',
  applicationNotFound: 'Review copy not found',
  notApproved: 'Only an approved review copy can take review links',
  linkTwice: 'You have already posted this link',
  tooManyLinks: `You can post at most ${REVIEW_LINKS_MAX} review links`,
  linkPosted: 'Thank you! Your review link is saved. We will not send you any more reminders.',
  stillOpen: 'Unread copies can be withdrawn once the campaign has closed.',
} as const;

const httpUrl = (message: string) =>
  lineText({ message })
    .trim()
    .min(1, message)
    .max(500, message)
    .refine((v) => {
      try {
        const url = new URL(v);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
      } catch {
        return false;
      }
    }, message);

/** POST /api/admin/review-copies and PUT /api/admin/review-copies/{id}. */
export const campaignInputSchema = z
  .object({
    bookId: z.number({ message: REVIEW_COPY_MESSAGES.bookId }).int(REVIEW_COPY_MESSAGES.bookId).positive(REVIEW_COPY_MESSAGES.bookId).max(MAX_DB_ID, REVIEW_COPY_MESSAGES.bookId),
    format: z.enum(REVIEW_COPY_FORMATS, { message: REVIEW_COPY_MESSAGES.format }),
    slug: text({ message: REVIEW_COPY_MESSAGES.slug }).trim().min(1, REVIEW_COPY_MESSAGES.slug).max(80, REVIEW_COPY_MESSAGES.slug).regex(SLUG_PATTERN, REVIEW_COPY_MESSAGES.slug),
    opensAt: isoDateTime(REVIEW_COPY_MESSAGES.opensAt),
    closesAt: isoDateTime(REVIEW_COPY_MESSAGES.closesAt),
    copies: z.number({ message: REVIEW_COPY_MESSAGES.copies }).int(REVIEW_COPY_MESSAGES.copies).min(1, REVIEW_COPY_MESSAGES.copies).max(10_000, REVIEW_COPY_MESSAGES.copies),
    question: paragraphText({ message: REVIEW_COPY_MESSAGES.question }).trim().min(1, REVIEW_COPY_MESSAGES.question).max(500, REVIEW_COPY_MESSAGES.question),
    autoApprove: z.boolean({ message: 'Choose whether applications are approved automatically' }),
    reminderDays: z.number({ message: REVIEW_COPY_MESSAGES.reminderDays }).int(REVIEW_COPY_MESSAGES.reminderDays).min(1, REVIEW_COPY_MESSAGES.reminderDays).max(90, REVIEW_COPY_MESSAGES.reminderDays),
  })
  .refine((v) => new Date(v.closesAt).getTime() > new Date(v.opensAt).getTime(), { message: REVIEW_COPY_MESSAGES.closesBeforeOpen, path: ['closesAt'] });
export type CampaignInput = z.infer<typeof campaignInputSchema>;

export const adminCampaignSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  bookTitle: text(),
  format: z.enum(REVIEW_COPY_FORMATS),
  formatLabel: text(),
  slug: text(),
  opensAt: text(),
  closesAt: text(),
  copies: z.number().int(),
  question: text(),
  autoApprove: z.boolean(),
  reminderDays: z.number().int(),
  state: z.enum(CAMPAIGN_STATES),
  applications: z.number().int(),
  pending: z.number().int(),
  approved: z.number().int(),
  reviewed: z.number().int(),
  withdrawn: z.number().int(),
  withdrawnAt: text().nullable(),
});
export type AdminCampaign = z.infer<typeof adminCampaignSchema>;
export const adminCampaignListSchema = z.array(adminCampaignSchema);

export const adminApplicationSchema = z.object({
  id: z.number().int(),
  name: text(),
  email: text(),
  reviewsWhere: text(),
  answer: text(),
  profileLinks: z.array(text()),
  status: z.enum(APPLICATION_STATUSES),
  appliedAt: text(),
  decidedAt: text().nullable(),
  reviewLinks: z.array(text()),
  remindersSent: z.number().int(),
  /** Titles of past campaigns' books this applicant kept without posting a review. */
  keptWithoutReview: z.array(text()),
});
export type AdminApplication = z.infer<typeof adminApplicationSchema>;
export const adminApplicationListSchema = z.array(adminApplicationSchema);

/** POST /api/admin/review-copies/{id}/decide: one or many applications at once. */
export const decideRequestSchema = z.object({
  ids: z.array(dbId(), { message: REVIEW_COPY_MESSAGES.ids }).min(1, REVIEW_COPY_MESSAGES.ids).max(500, REVIEW_COPY_MESSAGES.ids),
  decision: z.enum(['approve', 'decline'], { message: REVIEW_COPY_MESSAGES.decision }),
});
export type DecideRequest = z.infer<typeof decideRequestSchema>;
export const decideAnswerSchema = z.object({
  approved: z.number().int(),
  declined: z.number().int(),
  skipped: z.number().int(),
  message: text(),
});
export type DecideAnswer = z.infer<typeof decideAnswerSchema>;
export const countAnswerSchema = z.object({ count: z.number().int(), message: text() });
export type CountAnswer = z.infer<typeof countAnswerSchema>;
export const withdrawAnswerSchema = z.object({ withdrawn: z.number().int(), kept: z.number().int(), message: text() });
export type WithdrawAnswer = z.infer<typeof withdrawAnswerSchema>;

export const campaignSlugParams = z.object({ slug: text().trim().min(1).max(80).regex(SLUG_PATTERN) });
export const campaignIdParams = z.object({ id: dbId() });

/** GET /api/review-copies/{slug}: what an applicant sees. */
export const publicCampaignSchema = z.object({
  slug: text(),
  book: z.object({ id: z.number().int(), title: text(), tagline: text(), coverImage: text() }),
  formatLabel: text(),
  question: text(),
  opensAt: text(),
  closesAt: text(),
  state: z.enum(CAMPAIGN_STATES),
});
export type PublicCampaign = z.infer<typeof publicCampaignSchema>;

/** POST /api/review-copies/{slug}/apply. */
export const applicationRequestSchema = z.object({
  name: lineText({ message: REVIEW_COPY_MESSAGES.name }).trim().min(1, REVIEW_COPY_MESSAGES.name).max(100, REVIEW_COPY_MESSAGES.name),
  email: text({ message: REVIEW_COPY_MESSAGES.email }).trim().min(1, REVIEW_COPY_MESSAGES.email).max(254, REVIEW_COPY_MESSAGES.email).regex(EMAIL_PATTERN, REVIEW_COPY_MESSAGES.email),
  reviewsWhere: lineText({ message: REVIEW_COPY_MESSAGES.reviewsWhere }).trim().min(1, REVIEW_COPY_MESSAGES.reviewsWhere).max(200, REVIEW_COPY_MESSAGES.reviewsWhere),
  answer: paragraphText({ message: REVIEW_COPY_MESSAGES.answer }).trim().min(1, REVIEW_COPY_MESSAGES.answer).max(2000, REVIEW_COPY_MESSAGES.answer),
  profileLinks: z
    .array(httpUrl(REVIEW_COPY_MESSAGES.profileLink), { message: REVIEW_COPY_MESSAGES.profileLinks })
    .max(REVIEW_PROFILE_LINKS_MAX, REVIEW_COPY_MESSAGES.profileLinks)
    .default([]),
});
export type ApplicationRequest = z.input<typeof applicationRequestSchema>;
export const applicationAnswerSchema = z.object({ status: z.enum(['pending', 'approved']), message: text() });
export type ApplicationAnswer = z.infer<typeof applicationAnswerSchema>;

/** GET /api/review-copies/mine: the signed-in reader's review copies and the links they posted. */
export const myReviewCopySchema = z.object({
  id: z.number().int(),
  slug: text(),
  bookId: z.number().int(),
  bookTitle: text(),
  format: z.enum(REVIEW_COPY_FORMATS),
  formatLabel: text(),
  status: z.enum(APPLICATION_STATUSES),
  reviewLinks: z.array(z.object({ url: text(), postedAt: text() })),
});
export type MyReviewCopy = z.infer<typeof myReviewCopySchema>;
export const myReviewCopyListSchema = z.array(myReviewCopySchema);

/** POST /api/review-copies/applications/{id}/links. */
export const reviewLinkRequestSchema = z.object({ url: httpUrl(REVIEW_COPY_MESSAGES.reviewUrl) });
export type ReviewLinkRequest = z.infer<typeof reviewLinkRequestSchema>;
