import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, ROLES } from '../constants';
import { USERNAME_LATIN_ONLY, usernameScriptProblem } from '../usernames';
import { EMAIL_PATTERN, lineText, text } from './common';

const invalidEmail = 'Please enter a valid email address';
const tooLong = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;

export const loginSchema = z.object({
  username: text()
    .trim()
    .min(1, 'Username or email is required')
    .max(254)
    .refine((v) => !v.includes('@') || EMAIL_PATTERN.test(v), invalidEmail),
  password: text().min(1, 'Password is required').max(MAX_PASSWORD_LENGTH, tooLong),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email: text().trim().min(1, 'Email is required').max(254).regex(EMAIL_PATTERN, invalidEmail),
  username: text()
    .trim()
    // Full-width and other compatibility forms become the plain letters they show (decision 0014).
    .normalize('NFKC')
    .min(1, 'Username is required')
    .max(40, 'Username must be at most 40 characters')
    .regex(/^[\p{L}\p{N}_.-]+$/u, 'Username may contain letters, numbers, dots, dashes and underscores')
    .refine((v) => !/^[\p{L}\p{N}_.-]+$/u.test(v) || usernameScriptProblem(v) === null, USERNAME_LATIN_ONLY),
  displayName: lineText().trim().min(1, 'Display name is required').max(80, 'Display name must be at most 80 characters'),
  password: text()
    .min(1, 'Password is required')
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, tooLong),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.object({
  email: text().trim().min(1, 'Email is required').max(254).regex(EMAIL_PATTERN, invalidEmail),
});

/** Special characters accepted by the reset-password rule. */
export const RESET_SPECIAL_CHARS = '!@#$%^&*()_+-=[]{};\':"\\|,.<>/?`~';
const resetSpecial = new RegExp(`[${RESET_SPECIAL_CHARS.replace(/[\\\]^-]/g, '\\$&')}]`);

export const resetPasswordRules = text()
  .min(1, 'Password is required')
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  .max(MAX_PASSWORD_LENGTH, tooLong)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number')
  .regex(resetSpecial, 'Password must contain at least one special character');

export const resetPasswordFormSchema = z
  .object({ password: resetPasswordRules, confirmPassword: text() })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export const resetPasswordSchema = z.object({
  email: text().trim().min(1).max(254),
  token: text().min(1).max(200),
  newPassword: resetPasswordRules,
});

// Unicode-aware: "É" is an uppercase letter and "٣" a digit; a special character is anything that is
// neither a letter nor a number (punctuation, symbols, spaces).
export const changePasswordRules = text()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, tooLong)
  .regex(/\p{Lu}/u, 'Password must include at least one uppercase letter')
  .regex(/\p{Ll}/u, 'Password must include at least one lowercase letter')
  .regex(/\p{N}/u, 'Password must include at least one number')
  .regex(/[^\p{L}\p{N}]/u, 'Password must include at least one special character');

export const changePasswordSchema = z.object({
  currentPassword: text().min(1, 'Current password is required').max(MAX_PASSWORD_LENGTH, tooLong),
  newPassword: changePasswordRules,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const authUserSchema = z.object({ id: z.number().int(), role: z.enum(ROLES) });
export const authStatusSchema = z.object({
  isAuthenticated: z.boolean(),
  user: authUserSchema.nullable().optional(),
});
export type AuthStatus = z.infer<typeof authStatusSchema>;
export const adminStatusSchema = z.object({ isAuthenticated: z.boolean(), isAdmin: z.boolean() });

export const csrfTokenSchema = z.object({ csrfToken: text() });

export const userProfileSchema = z.object({
  id: z.number().int(),
  username: text(),
  email: text(),
  displayName: text().nullable(),
  avatarUrl: text().nullable().optional(),
  isSubscribed: z.boolean(),
  role: z.enum(ROLES),
  points: z.number().int().optional(),
  createdAt: text(),
  /** True for an account made by an emailed sign-in link that has not set a password yet (decision 0084). */
  linkOnly: z.boolean().optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const registerResponseSchema = z.object({ id: z.number().int(), token: text().optional(), message: text() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const loginResponseSchema = z.object({
  success: z.boolean(),
  user: authUserSchema,
  token: text().optional(),
  message: text(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Same body for every address: whether an account exists is never revealed. */
export const forgotPasswordResponseSchema = z.object({ success: z.boolean(), message: text() });

export const generatedPasswordSchema = z.object({ password: text() });
export const userIdParam = z.object({ userId: text().max(20) });

/** GET /api/users/reset-password/status: is this mailed link still good? Says nothing else. */
export const resetLinkStatusQuerySchema = z.object({
  email: text().trim().min(1).max(254),
  token: text().min(1).max(200),
});
export const resetLinkStatusSchema = z.object({ valid: z.boolean() });
export type ResetLinkStatus = z.infer<typeof resetLinkStatusSchema>;
