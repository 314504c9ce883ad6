/**
 * PostgreSQL's unique_violation (23505), as raised by both pg and PGlite, possibly wrapped by drizzle:
 * returns the violated constraint's name ('unknown' when the driver does not say), or null for any other
 * error.
 */
export function uniqueViolation(error: unknown): string | null {
  let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code === '23505') return e.constraint ?? 'unknown';
    e = e.cause as typeof e;
  }
  return null;
}
