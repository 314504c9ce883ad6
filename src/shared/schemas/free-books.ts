/**
 * A free book for subscribers (issue 31 point 2, decision 0097): the author's gift of one digital format, its
 * landing page /free/{slug}, the claim by email, the confirmation from the mail, and the author's figures.
 */
import { z } from 'zod';
import { DIGITAL_FORMATS } from '../constants';
import { SLUG_PATTERN } from '../slug';
import { authUserSchema } from './auth';
import { EMAIL_PATTERN, MAX_DB_ID, paragraphText, text } from './common';

/** How long the confirmation link of a claim works (it signs its reader in, so not for weeks). */
export const FREE_BOOK_CONFIRM_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const FREE_BOOK_PITCH_MAX = 1000;
/** `?source=` as it may be recorded: a campaign's short name, not a sentence. */
export const FREE_BOOK_SOURCE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const FREE_BOOK_MESSAGES = {
  bookId: 'Choose the book to give',
  format: 'A free book must be a digital format: ebook, audiobook or pdf',
  slug: 'The address may only hold lower-case letters, numbers and single dashes (at most 80 characters)',
  slugTaken: 'Another free book already uses this address. Please choose another.',
  pitch: `Write a pitch of 1 to ${FREE_BOOK_PITCH_MAX} characters`,
  notFound: 'Free book not found',
  bookNotFound: 'That book does not exist',
  /** The landing page, a claim or a confirmation for a gift that is off or was removed. */
  notOffered: 'This free book is not on offer at the moment.',
  email: 'Please enter a valid email address',
  source: 'The source may only hold letters, numbers, dots, dashes and underscores (at most 64)',
  /** One answer for every address that may claim, known or not. */
  sent: 'Check your email: we have sent you a link to confirm your address. Press it within 24 hours to get your book.',
  /** An address that left the list, complained or bounced: it is never written to again from this form. */
  suppressed:
    'This address has left the Thriller Circle or cannot receive our emails, so it cannot claim the free book. Please use another address.',
  confirmIncomplete: 'This confirmation link is not complete. Please use the link from your email.',
  confirmUnknown: 'This confirmation link is not valid. Please use the link from your most recent email, or ask for the book again.',
  confirmUsed: 'This confirmation link was already used: the book is in your library. Sign in to read it.',
  confirmExpired: 'This confirmation link has expired. Please ask for the book again on its page to get a new one.',
  claimed: 'Your free book is in your library. Welcome to the Thriller Circle!',
} as const;

export const freeBookSlugSchema = text({ message: FREE_BOOK_MESSAGES.slug })
  .trim()
  .min(1, FREE_BOOK_MESSAGES.slug)
  .max(80, FREE_BOOK_MESSAGES.slug)
  .regex(SLUG_PATTERN, FREE_BOOK_MESSAGES.slug);

export const freeBookSlugParams = z.object({ slug: text().max(200) });

/** POST /api/admin/free-books and PUT /api/admin/free-books/{id}. */
export const freeBookInputSchema = z.object({
  bookId: z.number({ message: FREE_BOOK_MESSAGES.bookId }).int(FREE_BOOK_MESSAGES.bookId).positive(FREE_BOOK_MESSAGES.bookId).max(MAX_DB_ID, FREE_BOOK_MESSAGES.bookId),
  format: z.enum(DIGITAL_FORMATS, { message: FREE_BOOK_MESSAGES.format }),
  slug: freeBookSlugSchema,
  pitch: paragraphText({ message: FREE_BOOK_MESSAGES.pitch }).trim().min(1, FREE_BOOK_MESSAGES.pitch).max(FREE_BOOK_PITCH_MAX, FREE_BOOK_MESSAGES.pitch),
  active: z.boolean().default(true),
});
export type FreeBookInput = z.input<typeof freeBookInputSchema>;

const bookSchema = z.object({ id: z.number().int(), title: text(), tagline: text(), coverImage: text() });

/** GET /api/free-books/{slug}: what the landing page shows. */
export const freeBookPageSchema = z.object({
  slug: text(),
  pitch: text(),
  format: z.enum(DIGITAL_FORMATS),
  formatLabel: text(),
  book: bookSchema,
});
export type FreeBookPage = z.infer<typeof freeBookPageSchema>;

/** POST /api/free-books/{slug}/claim. */
export const freeBookClaimSchema = z.object({
  email: text({ message: FREE_BOOK_MESSAGES.email })
    .trim()
    .min(1, 'Email is required')
    .max(254, FREE_BOOK_MESSAGES.email)
    .regex(EMAIL_PATTERN, FREE_BOOK_MESSAGES.email),
  /** From the landing page's `?source=`; the page drops a value that would be refused. */
  source: text({ message: FREE_BOOK_MESSAGES.source }).regex(FREE_BOOK_SOURCE_PATTERN, FREE_BOOK_MESSAGES.source).optional(),
});
export type FreeBookClaimInput = z.input<typeof freeBookClaimSchema>;
export const freeBookClaimAnswerSchema = z.object({ success: z.boolean(), message: text() });

/** POST /api/free-books/confirm: the button of the page the mail's link opens. */
export const freeBookConfirmSchema = z.object({ token: text().trim().min(1, FREE_BOOK_MESSAGES.confirmIncomplete).max(200, FREE_BOOK_MESSAGES.confirmUnknown) });

/** The confirmation's answer: the reader is signed in (as by an emailed link) and the book is theirs. */
export const freeBookConfirmAnswerSchema = z.object({
  success: z.boolean(),
  message: text(),
  user: authUserSchema,
  token: text().optional(),
  book: bookSchema,
  format: z.enum(DIGITAL_FORMATS),
  formatLabel: text(),
});
export type FreeBookConfirmAnswer = z.infer<typeof freeBookConfirmAnswerSchema>;

const figuresSchema = z.object({
  /** Requests sent from the landing page (each one mails a confirmation link). */
  requested: z.number().int(),
  /** Different addresses that confirmed and got the book. */
  claimed: z.number().int(),
  /** Of those, readers who paid for a book after claiming. */
  boughtLater: z.number().int(),
});

export const adminFreeBookSchema = z.object({
  id: z.number().int(),
  bookId: z.number().int(),
  bookTitle: text(),
  format: z.enum(DIGITAL_FORMATS),
  formatLabel: text(),
  slug: text(),
  pitch: text(),
  active: z.boolean(),
  createdAt: text(),
  updatedAt: text(),
  totals: figuresSchema,
  /** Per `?source=`, most claims first; `source` null for visitors who came without one. */
  sources: z.array(figuresSchema.extend({ source: text().nullable() })),
});
export type AdminFreeBook = z.infer<typeof adminFreeBookSchema>;
export const adminFreeBookListSchema = z.array(adminFreeBookSchema);
