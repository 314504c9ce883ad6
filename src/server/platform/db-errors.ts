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

/** PostgreSQL's query_canceled (57014): a statement timeout or a cancel stopped the statement. */
export function queryCancelled(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code === '57014') return true;
    e = e.cause as typeof e;
  }
  return false;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const CONNECTION_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/**
 * The database could not be reached (as opposed to a query that failed): a network error, a dropped or
 * timed-out connection, SQLSTATE class 08, or a server shutting down (57P01-57P03). The API answers 503.
 */
export function databaseUnavailable(error: unknown): boolean {
  let e = error as { code?: string; message?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = String(e.code ?? '');
    if (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
    if (CONNECTION_MESSAGES.test(String(e.message ?? ''))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
