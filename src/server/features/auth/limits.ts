/**
 * Abuse limits for sign-in and password reset, counted in app.deps.counter (Redis when configured, so
 * every instance shares the counts). All are fixed windows that expire by themselves: there is no lockout
 * that lasts longer than one window.
 *
 * Sign-in (decision 0010): only failures count, and only failures that passed the address checks. An
 * address over its limit is refused before anything else is read or counted. One reader fumbling their own
 * password locks that account from that address only, so readers behind one NAT keep signing in. The
 * account-wide count never refuses: past its limit every attempt on the account waits first.
 *
 * Password-reset requests (decision 0011) are limited per address, per email address from one address, and
 * (higher) per email address overall, so a stranger at one address cannot stop the owner's mail.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/http/errors';
import type { RateCounter } from '../../platform/security/rate-limit';

export interface Limit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const LIMITS = {
  loginFailuresPerIp: { max: 10, windowMs: 15 * MINUTE },
  loginFailuresPerAccountIp: { max: 5, windowMs: 15 * MINUTE },
  /** Past this, attempts on the account are slowed (ACCOUNT_DELAY), never refused. */
  loginFailuresPerAccount: { max: 25, windowMs: 15 * MINUTE },
  forgotPerIp: { max: 10, windowMs: 15 * MINUTE },
  forgotPerAccountIp: { max: 3, windowMs: 60 * MINUTE },
  forgotPerAccount: { max: 10, windowMs: 60 * MINUTE },
  currentPasswordFailuresPerUser: { max: 10, windowMs: 15 * MINUTE },
  // Emailed sign-in links (decision 0084): counted like reset requests, one step after another.
  loginLinkPerIp: { max: 10, windowMs: 15 * MINUTE },
  loginLinkPerAccountIp: { max: 3, windowMs: 60 * MINUTE },
  loginLinkPerAccount: { max: 10, windowMs: 60 * MINUTE },
} satisfies Record<string, Limit>;

/** The wait before checking a password for an account past its failure limit: 3 s, one more per further limit's worth, at most 10 s. */
export const ACCOUNT_DELAY = { firstMs: 3000, stepMs: 1000, maxMs: 10_000 };

export function accountDelayMs(failures: number, limit: Limit = LIMITS.loginFailuresPerAccount): number {
  if (failures < limit.max) return 0;
  const steps = Math.floor((failures - limit.max) / limit.max);
  return Math.min(ACCOUNT_DELAY.maxMs, ACCOUNT_DELAY.firstMs + steps * ACCOUNT_DELAY.stepMs);
}

export const keys = {
  loginIp: (ip: string) => `login:ip:${ip}`,
  loginIpInFlight: (ip: string) => `login:ipfly:${ip}`,
  loginAccountIp: (account: string, ip: string) => `login:acctip:${account.toLowerCase()}:${ip}`,
  loginAccountIpInFlight: (account: string, ip: string) => `login:acctipfly:${account.toLowerCase()}:${ip}`,
  loginAccount: (account: string) => `login:acct:${account.toLowerCase()}`,
  forgotIp: (ip: string) => `forgot:ip:${ip}`,
  forgotAccountIp: (email: string, ip: string) => `forgot:acctip:${email.toLowerCase()}:${ip}`,
  forgotAccount: (email: string) => `forgot:acct:${email.toLowerCase()}`,
  currentPassword: (userId: number) => `chpw:user:${userId}`,
  loginLinkIp: (ip: string) => `loginlink:ip:${ip}`,
  loginLinkAccountIp: (email: string, ip: string) => `loginlink:acctip:${email.toLowerCase()}:${ip}`,
  loginLinkAccount: (email: string) => `loginlink:acct:${email.toLowerCase()}`,
};

export function tooManyRequests(reply: FastifyReply, message: string, retryAfterMs: number): AppError {
  reply.header('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return new AppError('RATE_LIMITED', 429, message);
}

function minutesText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export const limitMessages = {
  login: (ms: number) => `Too many failed sign-in attempts. Please wait ${minutesText(ms)} and try again.`,
  forgot: (ms: number) => `Too many password reset requests. Please wait ${minutesText(ms)} and try again.`,
  currentPassword: (ms: number) =>
    `Too many wrong current passwords. Please wait ${minutesText(ms)} and try again.`,
  loginLink: (ms: number) => `Too many sign-in link requests. Please wait ${minutesText(ms)} and try again.`,
};

// The Redis counter reports reset times on the wall clock; bound the wait to one window either way.
const waitMs = (resetAt: number, now: number, limit: Limit) => Math.min(limit.windowMs, Math.max(1000, resetAt - now));

/**
 * Counts one event against each key; returns the longest wait if any counter went over its limit.
 * Used before the expensive check (password hashing), so the count and the limit are one atomic step:
 * parallel guesses cannot all slip past a check made before any of them was counted.
 */
export async function record(counter: RateCounter, checks: Array<[string, Limit]>, now: number): Promise<number | null> {
  const hits = await Promise.all(checks.map(([key, limit]) => counter.hit(key, limit.windowMs)));
  let wait: number | null = null;
  hits.forEach((hit, i) => {
    if (hit.count > checks[i][1].max) wait = Math.max(wait ?? 0, waitMs(hit.resetAt, now, checks[i][1]));
  });
  return wait;
}

/** The wait when `key` has reached its limit, else null. Reads only. */
export async function reached(counter: RateCounter, key: string, limit: Limit, now: number): Promise<number | null> {
  const { count, resetAt } = await counter.peek(key);
  return count >= limit.max ? waitMs(resetAt, now, limit) : null;
}

/** A failure limit whose checks may run in parallel: failures so far plus checks under way stay within it. */
export interface FailureGuard {
  failures: string;
  inFlight: string;
  limit: Limit;
}

// A reservation outlives any password check; one left behind by a crashed instance expires with this.
const IN_FLIGHT_WINDOW_MS = 30_000;
const QUEUE_POLL_MS = 15;
const QUEUE_TIMEOUT_MS = 15_000;

export type Reservation = { refusedFor: number } | { release(): Promise<void> };

/**
 * Takes a place for one password check under every guard. Only failures are counted for good, after the
 * check, so a success never uses up the limit; but a burst could then check more guesses than the limit
 * allows. Each guard therefore also counts the checks under way, and an attempt that would take failures
 * plus checks under way past the limit waits for a place instead of being refused: parallel correct
 * passwords all get through, parallel guesses stop at the limit. Refuses once failures alone reach a limit.
 */
export async function reserve(counter: RateCounter, guards: FailureGuard[], now: () => number): Promise<Reservation> {
  const deadline = Date.now() + QUEUE_TIMEOUT_MS;
  const releaseAll = async () => {
    await Promise.all(guards.map((g) => counter.release(g.inFlight)));
  };
  for (;;) {
    // Taken before failures are read: an attempt that turns its place into a failure meanwhile is then
    // seen at least once, never missed.
    const places = await Promise.all(guards.map((g) => counter.hit(g.inFlight, IN_FLIGHT_WINDOW_MS)));
    const failures = await Promise.all(guards.map((g) => counter.peek(g.failures)));
    const full = guards.findIndex((g, i) => failures[i].count >= g.limit.max);
    if (full >= 0) {
      await releaseAll();
      return { refusedFor: waitMs(failures[full].resetAt, now(), guards[full].limit) };
    }
    if (guards.every((g, i) => failures[i].count + places[i].count <= g.limit.max)) return { release: releaseAll };
    await releaseAll();
    if (Date.now() > deadline) return { refusedFor: 1000 };
    await new Promise((resolve) => setTimeout(resolve, QUEUE_POLL_MS + Math.random() * QUEUE_POLL_MS));
  }
}
