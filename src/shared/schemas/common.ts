import { z } from 'zod';

/** The one error shape every API failure answers with. */
export const errorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

/** Ids are PostgreSQL integers: anything larger cannot name a row and is a 400, never a database error. */
export const MAX_DB_ID = 2_147_483_647;
export const dbId = () => z.coerce.number().int().positive().max(MAX_DB_ID);

export const idParam = z.object({ id: dbId() });

/** Letters, digits and ._%+- before an @, then a domain, then a top-level part of 2 or more letters. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

export const successMessageSchema = z.object({ success: z.boolean(), message: z.string() });
