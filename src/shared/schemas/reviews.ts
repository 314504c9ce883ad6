/**
 * Verified reviews (issue 31 point 4): a reader who owns a book rates it (1 to 5) and writes a review; the
 * author approves, hides or answers it. One schema validates the review form in the browser and the request
 * on the server.
 */
import { z } from 'zod';
import { dbId, paragraphText, text } from './common';

export const REVIEW_TEXT_MIN = 10;
export const REVIEW_TEXT_MAX = 2000;
export const REVIEW_ANSWER_MAX = 1000;
export const REVIEW_STATUSES = ['pending', 'approved', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_MESSAGES = {
  ratingRequired: 'Please choose a rating from 1 to 5 stars',
  textTooShort: `Please write at least ${REVIEW_TEXT_MIN} characters`,
  textTooLong: `Your review must be at most ${REVIEW_TEXT_MAX} characters`,
  answerRequired: 'Please write an answer',
  answerTooLong: `The answer must be at most ${REVIEW_ANSWER_MAX} characters`,
  notOwned: 'Only a reader who owns this book can review it',
  alreadyReviewed: 'You have already reviewed this book; you can edit your review instead',
  noReview: 'You have not reviewed this book yet',
  reviewNotFound: 'Review not found',
  promptDismissed: 'We will not ask again for this book.',
  saved: 'Thank you! Your review will appear once the author has read it.',
} as const;

/** The reader's review: POST (first time) and PUT (an edit) /api/books/:id/my-review. */
export const reviewRequestSchema = z.object({
  rating: z
    .number({ message: REVIEW_MESSAGES.ratingRequired })
    .int(REVIEW_MESSAGES.ratingRequired)
    .min(1, REVIEW_MESSAGES.ratingRequired)
    .max(5, REVIEW_MESSAGES.ratingRequired),
  text: paragraphText({ message: REVIEW_MESSAGES.textTooShort })
    .trim()
    .min(REVIEW_TEXT_MIN, REVIEW_MESSAGES.textTooShort)
    .max(REVIEW_TEXT_MAX, REVIEW_MESSAGES.textTooLong),
});
export type ReviewRequest = z.infer<typeof reviewRequestSchema>;

export const bookIdParam = z.object({ id: dbId() });

/** A reader's own review as they see it: its state and the author's answer, if any. */
export const myReviewSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  rating: z.number().int(),
  text: text(),
  status: z.enum(REVIEW_STATUSES),
  answer: text().nullable(),
  createdAt: text(),
  updatedAt: text(),
});
export type MyReview = z.infer<typeof myReviewSchema>;

/**
 * GET /api/books/:id/my-review: whether the reader may review the book (owns any format), their review if
 * they wrote one, and whether the end of the book should ask "Enjoyed it?" (owns it, has not reviewed and
 * has not dismissed the question).
 */
export const myReviewAnswerSchema = z.object({
  bookId: z.number().int(),
  bookTitle: text(),
  canReview: z.boolean(),
  askAtEnd: z.boolean(),
  review: myReviewSchema.nullable(),
});
export type MyReviewAnswer = z.infer<typeof myReviewAnswerSchema>;

/** A verified review on the home page: an approved review by a reader who owns the book. */
export const verifiedReviewSchema = z.object({
  id: z.number().int(),
  rating: z.number().int(),
  text: text(),
  author: text(),
  answer: text().nullable(),
});
export type VerifiedReview = z.infer<typeof verifiedReviewSchema>;

/** One review in the admin list. */
export const adminReviewSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  bookTitle: text(),
  reader: text(),
  rating: z.number().int(),
  text: text(),
  status: z.enum(REVIEW_STATUSES),
  answer: text().nullable(),
  createdAt: text(),
  updatedAt: text(),
});
export type AdminReview = z.infer<typeof adminReviewSchema>;

export const adminReviewsQuery = z.object({ status: z.enum(REVIEW_STATUSES).optional() });

/** PUT /api/admin/reviews/:id/answer: the author's public answer (an empty one removes it). */
export const reviewAnswerRequestSchema = z.object({
  answer: paragraphText({ message: REVIEW_MESSAGES.answerRequired }).trim().max(REVIEW_ANSWER_MAX, REVIEW_MESSAGES.answerTooLong),
});
