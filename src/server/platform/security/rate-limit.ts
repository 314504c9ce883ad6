import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Clock } from './crypto';

/**
 * A fixed-window counter shared by every instance when Redis is configured. Route limits use
 * @fastify/rate-limit; rules that count something other than requests (failed logins per account)
 * use this directly.
 */
export interface RateCounter {
  /** Adds one to `key` and returns the count inside the current window and when that window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** The count inside the current window (0 and resetAt 0 when there is none), without adding to it. */
  peek(key: string): Promise<{ count: number; resetAt: number }>;
  /** Gives back one hit (never below zero): an attempt counted in advance that turned out fine. */
  release(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly clock: Clock) {}

  async hit(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    const current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      const fresh = { count: 1, resetAt: now + windowMs };
      this.windows.set(key, fresh);
      if (this.windows.size > 50_000) this.sweep(now);
      return { ...fresh };
    }
    current.count += 1;
    return { ...current };
  }

  async peek(key: string) {
    const current = this.windows.get(key);
    return current && current.resetAt > this.clock.now().getTime() ? { ...current } : { count: 0, resetAt: 0 };
  }

  /** How many windows are held (expired ones included until swept): what a flood of keys costs. */
  get size(): number {
    return this.windows.size;
  }

  async release(key: string) {
    const current = this.windows.get(key);
    if (current && current.count > 0) current.count -= 1;
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [k, v] of this.windows) if (v.resetAt <= now) this.windows.delete(k);
  }
}

export class RedisRateCounter implements RateCounter {
  constructor(private readonly redis: Redis, private readonly prefix = 'rl:') {}

  async hit(key: string, windowMs: number) {
    const k = this.prefix + key;
    const [[, count], [, ttl]] = (await this.redis
      .multi()
      .incr(k)
      .pttl(k)
      .exec()) as [[null, number], [null, number]];
    let remaining = ttl;
    if (ttl < 0) {
      await this.redis.pexpire(k, windowMs);
      remaining = windowMs;
    }
    return { count, resetAt: Date.now() + remaining };
  }

  async peek(key: string) {
    const k = this.prefix + key;
    const [[, value], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [[null, string | null], [null, number]];
    const count = Number(value ?? 0);
    return count > 0 ? { count, resetAt: Date.now() + Math.max(0, ttl) } : { count: 0, resetAt: 0 };
  }

  async release(key: string) {
    // Decrement only a live, positive counter, in one step on the server.
    await this.redis.eval(
      "local v = tonumber(redis.call('get', KEYS[1]) or '0') if v > 0 then redis.call('decr', KEYS[1]) end return v",
      1,
      this.prefix + key,
    );
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }
}

/** Registers per-route limits (off unless a route sets `config.rateLimit`). */
export async function registerRateLimits(app: FastifyInstance, redis: Redis | null): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis: redis ?? undefined,
    // Redis unreachable: serve rather than fail every limited route (decision 0043); the account
    // counters (FallbackRateCounter) still count on this instance meanwhile.
    skipOnError: true,
    nameSpace: 'rlr:',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
      code: 'RATE_LIMITED',
    }),
  });
}

/**
 * The Redis counter, falling back to this instance's memory while Redis does not answer (decision 0043):
 * limits then hold per instance instead of across instances, and the site keeps serving.
 */
export class FallbackRateCounter implements RateCounter {
  private warnedAt = 0;
  constructor(
    private readonly primary: RateCounter,
    private readonly fallback: RateCounter,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  private async either<T>(run: (c: RateCounter) => Promise<T>): Promise<T> {
    try {
      return await run(this.primary);
    } catch (error) {
      if (Date.now() - this.warnedAt > 60_000) {
        this.warnedAt = Date.now();
        this.log.warn({ err: error }, 'Redis unavailable: rate limits count on this instance only until it returns');
      }
      return run(this.fallback);
    }
  }

  hit(key: string, windowMs: number) {
    return this.either((c) => c.hit(key, windowMs));
  }
  peek(key: string) {
    return this.either((c) => c.peek(key));
  }
  release(key: string) {
    return this.either((c) => c.release(key));
  }
  reset(key: string) {
    return this.either((c) => c.reset(key));
  }
}
