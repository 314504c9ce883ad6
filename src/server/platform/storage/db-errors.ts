/**
 * The SQLSTATE (and, where the driver says, the constraint) of a statement the database refused: pg and
 * PGlite both raise it, possibly wrapped by drizzle (`cause`). Null for an error that carries none.
 */
export function sqlState(error: unknown): { code: string; constraint?: string } | null {
  let e = error as { code?: unknown; constraint?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, constraint: e.constraint };
  }
  return null;
}

/**
 * PostgreSQL's unique_violation (23505): returns the violated constraint's name ('unknown' when the driver
 * does not say), or null for any other error.
 */
export function uniqueViolation(error: unknown): string | null {
  const state = sqlState(error);
  return state?.code === '23505' ? (state.constraint ?? 'unknown') : null;
}

/** PostgreSQL's query_canceled (57014): a statement timeout or a cancel stopped the statement. */
export function queryCancelled(error: unknown): boolean {
  return sqlState(error)?.code === '57014';
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
