import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface Random {
  /** A url-safe random token of `bytes` random bytes (256 bits by default). */
  token(bytes?: number): string;
}
export interface Clock {
  now(): Date;
  /**
   * Monotonic milliseconds, for durations (a cache entry's safety net) that must not jump with the wall
   * clock; tests move it with their hand-moved clock.
   */
  elapsed(): number;
}

export const systemRandom: Random = { token: (bytes = 32) => randomBytes(bytes).toString('base64url') };
export const systemClock: Clock = { now: () => new Date(), elapsed: () => performance.now() };

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const hmac = (secret: string, value: string) => createHmac('sha256', secret).update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}
