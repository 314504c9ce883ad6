/**
 * The SQLSTATE and constraint name of a statement the database refused, found through drizzle's wrapping
 * (`cause`); pg and PGlite both carry them. Tests assert these rather than a message that depends on the
 * driver.
 */
export function sqlStateOf(error: unknown): { code: string; constraint?: string } | null {
  let e = error as { code?: unknown; constraint?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, constraint: e.constraint };
  }
  return null;
}

/** Awaits a statement that must be refused, and returns its SQLSTATE and constraint (throws if it was accepted). */
export async function refusal(statement: Promise<unknown>): Promise<{ code: string; constraint?: string }> {
  try {
    await statement;
  } catch (error) {
    const state = sqlStateOf(error);
    if (state) return state;
    throw error;
  }
  throw new Error('the statement was accepted');
}

export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  invalidTextRepresentation: '22P02',
} as const;
