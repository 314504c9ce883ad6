import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../db/client';
import type { MemoCache } from './memo-cache';

/** Channel name on PostgreSQL (LISTEN/NOTIFY) and on Redis (pub/sub). */
export const CACHE_CHANNEL = 'public_cache_clear';

export interface CacheBusOptions {
  cache: MemoCache;
  database: Database;
  /** When set, Redis pub/sub carries the clears; otherwise the database's LISTEN/NOTIFY does. */
  redis: Redis | null;
  log: FastifyBaseLogger;
}

/**
 * Carries "the public cache was cleared" between instances: a clear on one instance (an admin change)
 * clears every other instance's cache within milliseconds. When the listening connection was lost, the
 * instance clears its own cache once it is back, since it may have missed a message meanwhile.
 * Returns a function that stops listening.
 */
export async function startCacheBus({ cache, database, redis, log }: CacheBusOptions): Promise<() => Promise<void>> {
  const self = randomUUID();
  const onMessage = (payload: string) => {
    if (payload !== self) cache.clearLocal();
  };
  const onGap = () => {
    log.warn('cache bus reconnected: clearing the public cache in case a change was missed');
    cache.clearLocal();
  };

  let publish: () => Promise<unknown>;
  let stop: () => Promise<void>;
  if (redis) {
    // A subscribed Redis connection can do nothing else, so the bus has its own.
    const subscriber = redis.duplicate();
    let connectedOnce = false;
    subscriber.on('ready', () => {
      if (connectedOnce) onGap();
      connectedOnce = true;
    });
    subscriber.on('error', (error: Error) => log.warn({ err: error }, 'cache bus: redis error'));
    subscriber.on('message', (channel: string, payload: string) => {
      if (channel === CACHE_CHANNEL) onMessage(payload);
    });
    await subscriber.subscribe(CACHE_CHANNEL);
    publish = () => redis.publish(CACHE_CHANNEL, self);
    stop = async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
    };
  } else {
    stop = await database.listen(CACHE_CHANNEL, onMessage, onGap);
    publish = () => database.notify(CACHE_CHANNEL, self);
  }

  const removeListener = cache.onClear(() => {
    publish().catch((error: Error) =>
      log.warn({ err: error }, 'cache bus: could not announce a change; other instances catch up within SITE_CACHE_MS'),
    );
  });
  return async () => {
    removeListener();
    await stop();
  };
}
