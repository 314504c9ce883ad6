import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, ROLES } from '../constants';
import { EMAIL_PATTERN } from './common';

const invalidEmail = 'Please enter a valid email address';
const tooLong = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;

export const loginSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Username or email is required')
    .max(254)
    .refine((v) => !v.includes('@') || EMAIL_PATTERN.test(v), invalidEmail),
  password: z.string().min(1, 'Password is required').max(MAX_PASSWORD_LENGTH, tooLong),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254).regex(EMAIL_PATTERN, invalidEmail),
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(40, 'Username must be at most 40 characters')
    .regex(/^[\p{L}\p{N}_.-]+$/u, 'Username may contain letters, numbers, dots, dashes and underscores'),
  displayName: z.string().trim().min(1, 'Display name is required').max(80, 'Display name must be at most 80 characters'),
  password: z
    .string()
    .min(1, 'Password is required')
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, tooLong),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254).regex(EMAIL_PATTERN, invalidEmail),
});

/** Special characters accepted by the reset-password rule. */
export const RESET_SPECIAL_CHARS = '!@#$%^&*()_+-=[]{};\':"\\|,.<>/?`~';
const resetSpecial = new RegExp(`[${RESET_SPECIAL_CHARS.replace(/[\\\]^-]/g, '\\$&')}]`);

export const resetPasswordRules = z
  .string()
  .min(1, 'Password is required')
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  .max(MAX_PASSWORD_LENGTH, tooLong)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number')
  .regex(resetSpecial, 'Password must contain at least one special character');

export const resetPasswordFormSchema = z
  .object({ password: resetPasswordRules, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export const resetPasswordSchema = z.object({
  email: z.string().trim().min(1).max(254),
  token: z.string().min(1).max(200),
  newPassword: resetPasswordRules,
});

// Unicode-aware: "É" is an uppercase letter and "٣" a digit; a special character is anything that is
// neither a letter nor a number (punctuation, symbols, spaces).
export const changePasswordRules = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, tooLong)
  .regex(/\p{Lu}/u, 'Password must include at least one uppercase letter')
  .regex(/\p{Ll}/u, 'Password must include at least one lowercase letter')
  .regex(/\p{N}/u, 'Password must include at least one number')
  .regex(/[^\p{L}\p{N}]/u, 'Password must include at least one special character');

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(MAX_PASSWORD_LENGTH, tooLong),
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

export const csrfTokenSchema = z.object({ csrfToken: z.string() });

export const userProfileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable().optional(),
  isSubscribed: z.boolean(),
  role: z.enum(ROLES),
  points: z.number().int().optional(),
  createdAt: z.string(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const registerResponseSchema = z.object({ id: z.number().int(), token: z.string().optional(), message: z.string() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const loginResponseSchema = z.object({
  success: z.boolean(),
  user: authUserSchema,
  token: z.string().optional(),
  message: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Same body for every address: whether an account exists is never revealed. */
export const forgotPasswordResponseSchema = z.object({ success: z.boolean(), message: z.string() });

export const generatedPasswordSchema = z.object({ password: z.string() });
export const userIdParam = z.object({ userId: z.string().max(20) });

/** GET /api/users/reset-password/status: is this mailed link still good? Says nothing else. */
export const resetLinkStatusQuerySchema = z.object({
  email: z.string().trim().min(1).max(254),
  token: z.string().min(1).max(200),
});
export const resetLinkStatusSchema = z.object({ valid: z.boolean() });
export type ResetLinkStatus = z.infer<typeof resetLinkStatusSchema>;
