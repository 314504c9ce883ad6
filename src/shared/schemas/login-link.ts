/** Sign-in by emailed link (decision 0084): the request, its one answer, the use of a link, setting a first password. */
import { z } from 'zod';
import { changePasswordRules, registerSchema } from './auth';
import { EMAIL_PATTERN, text } from './common';

/** Where a reader who asked for a link from a purchase or a gift claim goes back to once it is used. */
export const LOGIN_LINK_RETURNS = ['purchase', 'gift'] as const;
export type LoginLinkReturnTo = (typeof LOGIN_LINK_RETURNS)[number];

export const loginLinkRequestSchema = z.object({
  email: text().trim().min(1, 'Email is required').max(254).regex(EMAIL_PATTERN, 'Please enter a valid email address'),
  /** Given from a purchase or a gift claim: an unknown address then gets a link that creates its account. */
  returnTo: z.enum(LOGIN_LINK_RETURNS).optional(),
});
export type LoginLinkRequest = z.infer<typeof loginLinkRequestSchema>;

/** The same for every address: whether an account exists is never revealed. */
export const loginLinkAnswerSchema = z.object({ success: z.boolean(), message: text() });

export const LOGIN_LINK_ANSWER = {
  success: true,
  message: 'Check your email: if we can sign you in with that address, a link is on its way. It is valid for 15 minutes.',
};

export const loginLinkUseSchema = z.object({ token: text().trim().min(1, 'This sign-in link is not complete.').max(200) });

/** A first password for an account that has none (made by an emailed link). */
export const setPasswordSchema = z.object({ newPassword: changePasswordRules });
export type SetPasswordInput = z.infer<typeof setPasswordSchema>;

/** A new username for the caller's account, under the sign-up rules. */
export const changeUsernameSchema = registerSchema.pick({ username: true });
export type ChangeUsernameInput = z.infer<typeof changeUsernameSchema>;
