import { z } from 'zod';
import { EMAIL_PATTERN, MAX_DB_ID, text } from './common';
import { NEWSLETTER_EMAIL_PATTERN } from './newsletter-email';
import { SIGNUP_SOURCES } from '../subscribers';

export { NEWSLETTER_EMAIL_PATTERN };

export const subscribeSchema = z.object({
  email: text()
    .trim()
    .min(1, 'Please enter a valid email address')
    .max(254, 'Please enter a valid email address')
    .regex(NEWSLETTER_EMAIL_PATTERN, 'Please enter a valid email address')
    // The form's rule (docs/PRODUCT.md, Newsletter) would let "a@b.co,c@d.co" through, and a mailer reads that as two
    // recipients: the server also insists on exactly one well-formed address.
    .regex(EMAIL_PATTERN, 'Please enter a valid email address'),
  // docs/PRODUCT.md, Newsletter: the form sends name empty.
  name: text().trim().max(120).optional().default(''),
  // Where the form sits (decision 0069). The home page's form sends only the email and name of docs/PRODUCT.md, Newsletter, so a
  // sign-up that names no source came from there.
  source: z.enum(SIGNUP_SOURCES, { message: 'Unknown sign-up source' }).optional().default('home'),
});
export type SubscribeInput = z.input<typeof subscribeSchema>;

export const subscribeAnswerSchema = z.object({
  message: text(),
  /** Points awarded by this request (0 when none, e.g. already awarded or signed out). */
  pointsEarned: z.number().int(),
});
export type SubscribeAnswer = z.infer<typeof subscribeAnswerSchema>;

export const unsubscribeQuerySchema = z.object({
  email: text().min(1).max(254),
  token: text().min(1).max(200),
  /** The broadcast whose link it is, to count who left from which mail (decision 0077). */
  b: z.coerce.number().int().positive().max(MAX_DB_ID).optional(),
});

