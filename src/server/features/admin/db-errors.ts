/** PostgreSQL's unique_violation, as raised by both pg and PGlite (possibly wrapped by drizzle). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code === '23505') return !constraint || e.constraint === constraint || e.constraint === undefined;
    e = e.cause as typeof e;
  }
  return false;
}
