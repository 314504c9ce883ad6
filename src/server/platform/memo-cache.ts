/**
 * The one in-process cache of public data: everything anonymous visitors read and only the admin changes
 * (site content, books, prices, blog posts, and the answers and pages built from them). An entry is filled
 * once and kept until an admin change clears the cache, on this instance at once and on every other instance
 * through the cache bus (cache-bus.ts); the TTL is only a safety net in case a clear message was lost.
 * Concurrent misses share one load; a failed load is not remembered.
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
}

export class MemoCache {
  private readonly entries = new Map<string, Entry>();
  private readonly clearListeners = new Set<() => void>();
  private readonly localClearListeners = new Set<() => void>();

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
    if (hit && hit.expires > performance.now() && (hit.staleAt === null || hit.staleAt > this.now())) {
      return hit.value as Promise<T>;
    }
    const value = load();
    const entry: Entry = { expires: performance.now() + this.ttlMs, value, staleAt: null };
    this.entries.set(key, entry);
    value.then(
      (v) => {
        const at = options?.staleAt?.(v);
        if (at !== null && at !== undefined) entry.staleAt = at;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** Forgets everything, here and (through the listeners, i.e. the cache bus) on every other instance. */
  clear(): void {
    this.clearLocal();
    for (const listener of this.clearListeners) listener();
  }

  /** Forgets everything on this instance only (a clear announced by another instance). */
  clearLocal(): void {
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
