/**
 * A small read-through cache for data every page reads and only the admin changes (site content, the
 * featured book, prices). Entries live `ttlMs` (monotonic time), so several instances agree within that
 * time; the instance that handles an admin change clears it at once. Concurrent misses share one load.
 */
export class MemoCache {
  private readonly entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  constructor(private readonly ttlMs: number) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { expires: now + this.ttlMs, value });
    // A failed load is not remembered.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
