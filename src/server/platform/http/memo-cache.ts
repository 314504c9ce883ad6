import { LRUCache } from 'lru-cache';

/**
 * The one in-process cache of public data: everything anonymous visitors read and only the admin changes
 * (site content, books, prices, blog posts, and the answers and pages built from them). An entry is filled
 * once and kept until an admin change clears the cache, on this instance at once and on every other instance
 * through the cache bus (cache-bus.ts); the TTL is only a safety net in case a clear message was lost.
 * Concurrent misses share one load; a failed load is not remembered. When only the safety net has run out,
 * the entry keeps being answered while a fresh load runs in the background (it replaces the entry when it
 * succeeds), so that no reader waits on a refill nothing asked for.
 */
export interface MemoOptions<T> {
  /**
   * Wall-clock time (ms, from the app's clock) after which the value is out of date by its own nature,
   * e.g. when a scheduled post becomes due. Null or undefined: only the TTL and clears end it.
   */
  staleAt?: (value: T) => number | null | undefined;
}

/** What an entry holds: the loaded value and its own end of validity (wall clock), if it has one. */
interface Loaded {
  value: unknown;
  staleAt: number | null;
}

interface LoadContext {
  load: () => Promise<unknown>;
  options?: MemoOptions<unknown>;
}

/** A bound on distinct entries (pages, answers, lists); far above what the site has, so nothing live is evicted. */
const MAX_ENTRIES = 20_000;

/**
 * Stale-while-revalidate is lru-cache's `fetch` (decision 0101): concurrent misses share one load, a stale
 * entry is answered while one background fetch runs, a failed refresh keeps the old value, and a clear
 * aborts fetches in flight so that what they load is handed to their callers but never stored.
 */
export class MemoCache {
  private readonly lru: LRUCache<string, Loaded, LoadContext> | null;
  private readonly clearListeners = new Set<() => void>();
  private readonly localClearListeners = new Set<() => void>();
  private running = 0;

  /**
   * @param ttlMs safety-net lifetime of an entry (monotonic time); 0 turns caching off (every get loads).
   * @param now the app's clock in epoch ms, for `staleAt`.
   * @param elapsed monotonic milliseconds, for the safety net.
   */
  constructor(
    ttlMs: number,
    private readonly now: () => number = Date.now,
    elapsed: () => number = () => performance.now(),
  ) {
    this.lru =
      ttlMs > 0
        ? new LRUCache<string, Loaded, LoadContext>({
            max: MAX_ENTRIES,
            ttl: ttlMs,
            // The clock is read on every check (no 1 ms memo), so a test's hand-moved clock takes effect at once.
            ttlResolution: 0,
            // lru-cache takes a start time of 0 to mean "no TTL": keep a clock that starts at 0 clear of it.
            perf: { now: () => elapsed() + 1 },
            allowStale: true,
            ignoreFetchAbort: true,
            fetchMethod: (_key, stale, { context }) => this.load(context, stale !== undefined),
          })
        : null;
  }

  get enabled(): boolean {
    return this.lru !== null;
  }

  /** Background refreshes running now: a reader of the cache's state (a test) can wait for them to end. */
  get refreshing(): number {
    return this.running;
  }

  async get<T>(key: string, load: () => Promise<T>, options?: MemoOptions<T>): Promise<T> {
    if (!this.lru) return load();
    // A value past its own end of validity is never answered, not even while a fresh one loads.
    let held = this.lru.peek(key, { allowStale: true });
    if (held && held.staleAt !== null && held.staleAt <= this.now()) {
      this.lru.delete(key);
      held = undefined;
    }
    const loaded = await this.lru.fetch(key, {
      context: { load, options: options as MemoOptions<unknown> | undefined },
      // A failed refresh keeps the old value answered (the next read after the TTL tries again); a failed
      // first load reaches its callers and leaves nothing behind.
      allowStaleOnFetchRejection: held !== undefined,
    });
    return loaded!.value as T;
  }

  private async load(context: LoadContext, refresh: boolean): Promise<Loaded> {
    if (refresh) this.running += 1;
    try {
      const value = await context.load();
      return { value, staleAt: context.options?.staleAt?.(value) ?? null };
    } finally {
      if (refresh) this.running -= 1;
    }
  }

  /** Forgets everything, here and (through the listeners, i.e. the cache bus) on every other instance. */
  clear(): void {
    this.clearLocal();
    for (const listener of this.clearListeners) listener();
  }

  /** Forgets everything on this instance only (a clear announced by another instance). */
  clearLocal(): void {
    this.lru?.clear();
    for (const listener of this.localClearListeners) listener();
  }

  /** Runs after every clear of this instance's entries, whoever asked for it (copies of entries must go too). */
  onLocalClear(listener: () => void): void {
    this.localClearListeners.add(listener);
  }

  /** Runs after each `clear()` made on this instance; returns a function that removes the listener. */
  onClear(listener: () => void): () => void {
    this.clearListeners.add(listener);
    return () => this.clearListeners.delete(listener);
  }
}
