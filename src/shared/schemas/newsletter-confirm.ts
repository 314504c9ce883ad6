/** The confirmation of a newsletter address (decision 0069): its own module, so the home page's subscribe form does not carry it. */
import { z } from 'zod';
import { text } from './common';

/** POST /api/newsletter/confirm: the token from the welcome mail's confirmation link. */
export const confirmSubscriptionSchema = z.object({
  token: text()
    .trim()
    .min(1, 'This confirmation link is not complete. Please use the link from your welcome email.')
    .max(200, 'This confirmation link is not valid. Please use the link from your most recent welcome email.'),
});
export type ConfirmSubscriptionInput = z.infer<typeof confirmSubscriptionSchema>;

export const confirmSubscriptionAnswerSchema = z.object({
  /** 'confirmed' by this request, or 'already' confirmed before (pressing twice is harmless). */
  status: z.enum(['confirmed', 'already']),
  message: text(),
});
export type ConfirmSubscriptionAnswer = z.infer<typeof confirmSubscriptionAnswerSchema>;
