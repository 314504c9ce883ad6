/**
 * Gifts (issue 15 point 3): the gift part of a checkout, the claim page and the buyer's gift status. One
 * schema validates the request on the server and the gift form on the client.
 */
import { z } from 'zod';
import { EMAIL_PATTERN, isoDateTime, lineText, paragraphText, text } from './common';

export const GIFT_MESSAGE_MAX = 500;
export const GIFT_NAME_MAX = 100;

export const GIFT_MESSAGES = {
  nameRequired: 'Recipient name is required',
  nameTooLong: `Recipient name must be at most ${GIFT_NAME_MAX} characters`,
  emailInvalid: "Please enter a valid email address for the recipient",
  messageTooLong: `The gift message must be at most ${GIFT_MESSAGE_MAX} characters`,
  sendAtInvalid: 'Please enter a valid delivery date and time',
  sendAtPast: 'The delivery date and time must not be in the past',
  digitalOnly: 'Only the digital formats can be given as a gift',
} as const;

/** `gift` in the POST /api/checkout body. `sendAt` is an ISO date-time; leave it out to send at once. */
export const giftRequestSchema = z.object({
  recipientName: lineText({ message: GIFT_MESSAGES.nameRequired })
    .trim()
    .min(1, GIFT_MESSAGES.nameRequired)
    .max(GIFT_NAME_MAX, GIFT_MESSAGES.nameTooLong),
  recipientEmail: text({ message: GIFT_MESSAGES.emailInvalid })
    .trim()
    .max(254, GIFT_MESSAGES.emailInvalid)
    .regex(EMAIL_PATTERN, GIFT_MESSAGES.emailInvalid),
  message: paragraphText()
    .trim()
    .max(GIFT_MESSAGE_MAX, GIFT_MESSAGES.messageTooLong)
    .optional()
    .transform((v) => (v ? v : undefined)),
  sendAt: isoDateTime(GIFT_MESSAGES.sendAtInvalid)
    .optional()
    .nullable()
    .transform((v) => v ?? undefined),
});
export type GiftRequest = z.input<typeof giftRequestSchema>;

/** The clock is the server's (tests move it), so "not in the past" is checked where the clock is known. */
export function sendAtError(sendAt: string | undefined, now: Date): string | null {
  if (!sendAt) return null;
  return new Date(sendAt).getTime() < now.getTime() ? GIFT_MESSAGES.sendAtPast : null;
}

export const GIFT_STATUSES = ['scheduled', 'sent', 'claimed', 'refunded'] as const;
export type GiftStatus = (typeof GIFT_STATUSES)[number];

/** What the buyer's "Your Orders" shows about a gift. */
export const giftSummarySchema = z.object({
  id: z.number().int(),
  recipientName: text(),
  recipientEmail: text(),
  status: z.enum(GIFT_STATUSES),
  sendAt: text().nullable(),
  sentAt: text().nullable(),
  claimedAt: text().nullable(),
  canResend: z.boolean(),
  /** Whether the recipient has downloaded the claimed file (reading it online is not a download). */
  downloaded: z.boolean().optional(),
});
export type GiftSummary = z.infer<typeof giftSummarySchema>;

export const giftTokenParams = z.object({ token: text().min(10).max(200) });

/** The claim page: only what the gift is, never the buyer's or recipient's email. */
export const giftViewSchema = z.object({
  from: text(),
  recipientName: text(),
  message: text().nullable(),
  format: text(),
  formatLabel: text(),
  book: z.object({ id: z.number().int(), title: text(), coverImage: text() }),
  /** 'open' can be claimed; the others say why not. */
  state: z.enum(['open', 'claimed', 'refunded']),
});
export type GiftView = z.infer<typeof giftViewSchema>;

export const giftClaimResultSchema = z.object({ success: z.boolean(), message: text(), redirectTo: text() });
export type GiftClaimResult = z.infer<typeof giftClaimResultSchema>;

export const GIFT_CLAIM_MESSAGES = {
  notFound: 'This gift link is not valid. Please ask the sender to resend it.',
  claimed: 'This gift has already been claimed.',
  refunded: 'This gift was refunded and can no longer be claimed.',
  claimedNow: 'Your gift is in your library.',
  notSentYet: 'This gift has not been sent yet.',
  resendTooSoon: 'This gift was sent a moment ago. Please wait a few minutes before sending it again.',
  resent: 'The gift was sent again.',
} as const;
