/**
 * Abuse limits for sign-in and password reset, counted in app.deps.counter (Redis when configured, so
 * every instance shares the counts). All are fixed windows that expire by themselves: there is no lockout
 * that lasts longer than one window.
 *
 * Failed sign-ins: the per-IP limit is lower than the per-account one, so an attacker at one address is
 * stopped before they can block the account for its owner; blocking an account takes many addresses and
 * lasts only until the window ends.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors';
import type { RateCounter } from '../../platform/rate-limit';

export interface Limit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const LIMITS = {
  loginFailuresPerIp: { max: 10, windowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 25, windowMs: 15 * MINUTE },
  forgotPerIp: { max: 10, windowMs: 15 * MINUTE },
  forgotPerAccount: { max: 3, windowMs: 60 * MINUTE },
  currentPasswordFailuresPerUser: { max: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, Limit>;

export const keys = {
  loginIp: (ip: string) => `login:ip:${ip}`,
  loginAccount: (account: string) => `login:acct:${account.toLowerCase()}`,
  forgotIp: (ip: string) => `forgot:ip:${ip}`,
  forgotAccount: (email: string) => `forgot:acct:${email.toLowerCase()}`,
  currentPassword: (userId: number) => `chpw:user:${userId}`,
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
};

// The Redis counter reports reset times on the wall clock; bound the wait to one window either way.
const waitMs = (resetAt: number, now: number, limit: Limit) => Math.min(limit.windowMs, Math.max(1000, resetAt - now));

/**
 * Counts one event against each key; returns the longest wait if any counter went over its limit.
 * Used before the expensive check (password hashing), so the count and the limit are one atomic step:
 * parallel guesses cannot all slip past a check made before any of them was counted. An attempt that
 * succeeds gives its hit back (`counter.release`).
 */
export async function record(counter: RateCounter, checks: Array<[string, Limit]>, now: number): Promise<number | null> {
  const hits = await Promise.all(checks.map(([key, limit]) => counter.hit(key, limit.windowMs)));
  let wait: number | null = null;
  hits.forEach((hit, i) => {
    if (hit.count > checks[i][1].max) wait = Math.max(wait ?? 0, waitMs(hit.resetAt, now, checks[i][1]));
  });
  return wait;
}
