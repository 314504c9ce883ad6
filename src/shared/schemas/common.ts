import { z } from 'zod';

/** The one error shape every API failure answers with. */
export const errorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

export const idParam = z.object({ id: z.coerce.number().int().positive() });

/** Letters, digits and ._%+- before an @, then a domain, then a top-level part of 2 or more letters. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

export const successMessageSchema = z.object({ success: z.boolean(), message: z.string() });
