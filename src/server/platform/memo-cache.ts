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

interface Entry {
  expires: number;
  value: Promise<unknown>;
  /** Resolved value's own end of validity (wall clock), once known. */
  staleAt: number | null;
  /** The load succeeded: the value may be answered while a refresh runs. */
  loaded: boolean;
  refreshing: boolean;
}

export class MemoCache {
  private readonly entries = new Map<string, Entry>();
  private readonly clearListeners = new Set<() => void>();
  private readonly localClearListeners = new Set<() => void>();
  /** Counts clears: a refresh started before a clear must not put its value back. */
  private generation = 0;

  /**
   * @param ttlMs safety-net lifetime of an entry (monotonic time); 0 turns caching off (every get loads).
   * @param now the app's clock in epoch ms, for `staleAt`.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get<T>(key: string, load: () => Promise<T>, options?: MemoOptions<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && (hit.staleAt === null || hit.staleAt > this.now())) {
      if (hit.expires > performance.now()) return hit.value as Promise<T>;
      if (hit.loaded) {
        if (!hit.refreshing) this.refresh(key, hit, load, options);
        return hit.value as Promise<T>;
      }
    }
    return this.fill(key, load(), options);
  }

  private fill<T>(key: string, value: Promise<T>, options?: MemoOptions<T>): Promise<T> {
    const entry: Entry = { expires: performance.now() + this.ttlMs, value, staleAt: null, loaded: false, refreshing: false };
    this.entries.set(key, entry);
    value.then(
      (v) => {
        entry.loaded = true;
        const at = options?.staleAt?.(v);
        if (at !== null && at !== undefined) entry.staleAt = at;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** Loads an entry again in the background; the old value stays until the new one has arrived. */
  private refresh<T>(key: string, entry: Entry, load: () => Promise<T>, options?: MemoOptions<T>): void {
    entry.refreshing = true;
    const generation = this.generation;
    load().then(
      (value) => {
        if (this.generation !== generation || this.entries.get(key) !== entry) return;
        this.fill(key, Promise.resolve(value), options);
      },
      () => {
        // The old value stays answered; the next read after the TTL tries again.
        entry.refreshing = false;
      },
    );
  }

  /** Forgets everything, here and (through the listeners, i.e. the cache bus) on every other instance. */
  clear(): void {
    this.clearLocal();
    for (const listener of this.clearListeners) listener();
  }

  /** Forgets everything on this instance only (a clear announced by another instance). */
  clearLocal(): void {
    this.generation++;
    this.entries.clear();
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
