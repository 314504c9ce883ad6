import os from 'node:os';
import { Redis } from 'ioredis';

/**
 * What a start does when a service it is configured with does not answer (decision 0063): the site cannot
 * serve without its database or its file bucket, so the start waits for them a bounded time and then stops
 * with one line; it can serve without Redis or SMTP, so it says so in one line and goes on while those
 * clients keep retrying in the background. Every line names the service and where it was looked for, never
 * the credentials in its URL.
 */

/** A start that cannot go on; its message is the one line the operator reads. */
export class StartAbort extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartAbort';
  }
}

/** Writes one line for the operator. */
export type Say = (line: string) => void;

/** Host and port of a service URL, without the user name or password it may carry. */
export function whereIs(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return 'an unreadable address';
  }
}

/**
 * The short cause of a failed connection: the system error code (ECONNREFUSED), a server's error code or
 * name, else the first line of the message.
 */
export function reasonOf(error: unknown): string {
  const e = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    errors?: unknown[];
    cause?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  // The S3 client's answers from the server: a HEAD has no body, so its status and error name are all.
  const status = e?.$metadata?.httpStatusCode;
  if (status) return typeof e.name === 'string' && e.name !== 'UnknownError' ? `HTTP ${status} ${e.name}` : `HTTP ${status}`;
  if (typeof e?.code === 'string' && e.code) {
    const message = typeof e.message === 'string' ? e.message.split('\n')[0] : '';
    // A client's own wrapper code (nodemailer's ESOCKET) over the system's (connect ECONNREFUSED ...).
    const system = /\b(E[A-Z]{4,})\b/.exec(message)?.[1];
    if (system && system !== e.code && system in os.constants.errno) return system;
    // A system error code says it all; a server's (SQLSTATE 3D000, SMTP's EAUTH) reads better with its message.
    return e.code in os.constants.errno || !message ? e.code : `${e.code} ${message}`;
  }
  // Node reports a refused connection to every address of a name as an AggregateError without a message.
  if (Array.isArray(e?.errors) && e.errors.length) return reasonOf(e.errors[0]);
  if (e?.cause) return reasonOf(e.cause);
  if (typeof e?.message === 'string' && e.message) return e.message.split('\n')[0].slice(0, 200);
  if (typeof e?.name === 'string' && e.name !== 'Error') return e.name;
  return String(error);
}

export interface WaitOptions {
  /** The service as the operator knows it: "PostgreSQL at db:5432". */
  service: string;
  /** How long the start keeps trying before it gives up. */
  waitMs: number;
  say: Say;
  /** Failures no retry can mend (a wrong password, a missing database): stop at once. */
  isPermanent?: (error: unknown) => boolean;
  /** First pause between attempts; it doubles up to 5 s. */
  firstDelayMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `check` until it succeeds, for at most `waitMs`. The first failure is reported in one line, the
 * recovery in another; giving up throws a StartAbort naming the service and the last cause.
 */
export async function waitForService(check: () => Promise<unknown>, options: WaitOptions): Promise<void> {
  const started = Date.now();
  const seconds = Math.round(options.waitMs / 1000);
  let delay = options.firstDelayMs ?? 500;
  let failures = 0;
  for (;;) {
    try {
      await check();
      if (failures > 0) options.say(`${options.service} answered after ${Math.round((Date.now() - started) / 1000)} s`);
      return;
    } catch (error) {
      const reason = reasonOf(error);
      if (options.isPermanent?.(error)) throw new StartAbort(`${options.service} refused the start (${reason}): exiting`);
      if (Date.now() - started + delay > options.waitMs) {
        throw new StartAbort(`${options.service} unavailable for ${seconds} s (${reason}): exiting`);
      }
      if (failures === 0) options.say(`${options.service} unavailable (${reason}): retrying for up to ${seconds} s`);
      failures += 1;
    }
    await pause(delay);
    delay = Math.min(delay * 2, 5000);
  }
}

/** PostgreSQL errors a retry cannot mend: bad credentials (class 28) and a database that does not exist. */
export function isPermanentDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('28') || code === '3D000');
}

/** How long a start waits for the shared Redis before it goes on without it. */
export const REDIS_START_WAIT_MS = 5000;

/**
 * The shared Redis client. Its commands fail at once while Redis is away (no offline queue), so the rate
 * limits fall back to this instance's counters instead of making requests wait (decision 0043); the client
 * reconnects by itself. Waits up to `waitMs` for the first connection, then goes on either way. An outage
 * is reported once when it begins and once when it ends, not on every reconnection attempt.
 */
export async function connectRedis(url: string, say: Say, waitMs = REDIS_START_WAIT_MS): Promise<Redis> {
  const service = `Redis at ${whereIs(url)}`;
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    connectionName: `site:${os.hostname()}:${process.pid}`,
  });
  let up = false;
  let outageReported = false;
  redis.on('error', (error: Error) => {
    if (up || outageReported) return;
    outageReported = true;
    say(
      `${service} unreachable (${reasonOf(error)}): serving without it, retrying in the background; ` +
        'rate limits count per instance and other instances see admin changes within SITE_CACHE_MS until it answers',
    );
  });
  redis.on('ready', () => {
    if (outageReported) say(`${service} answers again: rate limits and cache clears are shared again`);
    up = true;
    outageReported = false;
  });
  redis.on('close', () => {
    up = false;
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(finish, waitMs);
    function finish() {
      clearTimeout(timer);
      redis.off('ready', finish);
      resolve();
    }
    redis.once('ready', finish);
  });
  return redis;
}

/** How long the background SMTP check waits for an answer. */
const SMTP_CHECK_MS = 10_000;

/**
 * Asks the SMTP server whether it answers, after the start (mail waits in the outbox, so the site does not
 * wait for it). Reports a failure in one line; never throws.
 */
export async function checkSmtp(verify: () => Promise<unknown>, url: string, say: Say): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${SMTP_CHECK_MS / 1000} s`)), SMTP_CHECK_MS);
    timer.unref();
  });
  try {
    await Promise.race([verify(), timeout]);
  } catch (error) {
    say(`SMTP at ${whereIs(url)} unavailable (${reasonOf(error)}): mail waits in the outbox and is sent once it answers`);
  } finally {
    clearTimeout(timer);
  }
}
