import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/client';
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

/** How long a start waits for the first Redis subscription before it goes on without it. */
const FIRST_SUBSCRIPTION_WAIT_MS = 3000;

/**
 * Listens on Redis with a connection of its own (a subscribed connection can do nothing else). The main
 * client runs without an offline queue, and so does this copy of it: the channel is subscribed on each
 * 'ready' (the first connection and every reconnection), when the connection can take commands, rather
 * than by ioredis' automatic resubscription, whose failure nobody could catch. After a reconnection the
 * local cache is cleared, since a message may have been missed meanwhile. Waits a bounded time for the
 * first subscription; while Redis is away, the instance serves and other instances' changes reach it
 * within SITE_CACHE_MS.
 */
async function subscribeOnRedis(
  redis: Redis,
  onMessage: (payload: string) => void,
  onGap: () => void,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  // Named for the operator's CLIENT LIST: which instance's bus a connection is.
  const subscriber = redis.duplicate({ autoResubscribe: false, connectionName: `site-cache-bus:${os.hostname()}:${process.pid}` });
  // A subscription after a lost connection, or one that came only after the start went on without it,
  // may have missed a message.
  let mayHaveMissed = false;
  let firstSubscription: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => (firstSubscription = resolve));
  subscriber.on('ready', () => {
    subscriber.subscribe(CACHE_CHANNEL).then(
      () => {
        if (mayHaveMissed) onGap();
        firstSubscription();
      },
      (error: Error) => log.warn({ err: error }, 'cache bus: could not subscribe; retrying when Redis reconnects'),
    );
  });
  subscriber.on('close', () => (mayHaveMissed = true));
  // Connection errors repeat on every reconnection attempt; the main client already reports the outage.
  subscriber.on('error', () => undefined);
  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === CACHE_CHANNEL) onMessage(payload);
  });
  // When the main client has already failed to connect (the start went on without Redis), there is
  // nothing to wait for.
  if (redis.status !== 'reconnecting' && redis.status !== 'end') {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([subscribed, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_SUBSCRIPTION_WAIT_MS)))]);
    clearTimeout(timer);
  }
  mayHaveMissed = true;
  return async () => {
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
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
    stop = await subscribeOnRedis(redis, onMessage, onGap, log);
    publish = () => redis.publish(CACHE_CHANNEL, self);
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
