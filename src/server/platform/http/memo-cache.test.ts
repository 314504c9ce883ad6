import { describe, expect, it } from 'vitest';
import { MemoCache } from './memo-cache';

/** A cache on hand-moved monotonic time: `pass(ms)` lets its safety net run out without waiting. */
function cacheWithTime(ttlMs: number, now: () => number = Date.now) {
  let elapsed = 0;
  const cache = new MemoCache(ttlMs, now, () => elapsed);
  return { cache, pass: (ms: number) => (elapsed += ms) };
}

/** One turn of the event loop: a background refresh whose load has resolved has stored its value. */
const refreshSettled = () => new Promise((resolve) => setImmediate(resolve));

describe('MemoCache', () => {
  it('loads once for concurrent and repeated reads within the ttl', async () => {
    const cache = new MemoCache(60_000);
    let loads = 0;
    const load = async () => ++loads;
    const values = await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(values).toEqual([1, 1, 1]);
    expect(await cache.get('k', load)).toBe(1);
    cache.clear();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('after the ttl answers the old value while it reloads, then the new one; never caches failures', async () => {
    const { cache, pass } = cacheWithTime(20);
    let loads = 0;
    expect(await cache.get('k', async () => ++loads)).toBe(1);
    // Fresh for the whole ttl, its last millisecond included; stale the moment after.
    pass(20);
    expect(await cache.get('k', async () => ++loads)).toBe(1);
    expect(loads).toBe(1);
    pass(1);
    // Both reads get the old value at once, and only one refresh runs.
    expect(await Promise.all([cache.get('k', async () => ++loads), cache.get('k', async () => ++loads)])).toEqual([1, 1]);
    await refreshSettled();
    expect(await cache.get('k', async () => ++loads)).toBe(2);
    expect(loads).toBe(2);
    await expect(cache.get('f', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('f', async () => 'up')).toBe('up');
  });

  it('passes straight through when disabled', async () => {
    const cache = new MemoCache(0);
    let loads = 0;
    await cache.get('k', async () => ++loads);
    await cache.get('k', async () => ++loads);
    expect(loads).toBe(2);
  });
});

describe('MemoCache staleness and clears', () => {
  it('treats a value as out of date from the time it names, by the given clock', async () => {
    let now = 1_000;
    const cache = new MemoCache(60_000, () => now);
    let loads = 0;
    const load = async () => ({ n: ++loads, until: 2_000 });
    expect((await cache.get('k', load, { staleAt: (v) => v.until })).n).toBe(1);
    now = 1_999;
    expect((await cache.get('k', load, { staleAt: (v) => v.until })).n).toBe(1);
    now = 2_000;
    expect((await cache.get('k', load, { staleAt: (v) => v.until })).n).toBe(2);
  });

  it('announces its own clears to listeners but not the clears it is told about', async () => {
    const cache = new MemoCache(60_000);
    let announced = 0;
    const stop = cache.onClear(() => announced++);
    let loads = 0;
    await cache.get('k', async () => ++loads);
    cache.clearLocal();
    expect(announced).toBe(0);
    expect(await cache.get('k', async () => ++loads)).toBe(2);
    cache.clear();
    expect(announced).toBe(1);
    stop();
    cache.clear();
    expect(announced).toBe(1);
  });

  it('does not keep a load that was in flight when the cache was cleared', async () => {
    const cache = new MemoCache(60_000);
    let release!: (v: string) => void;
    const slow = cache.get('k', () => new Promise<string>((r) => (release = r)));
    cache.clear();
    release('old');
    expect(await slow).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });
});

describe('MemoCache background refresh', () => {
  it('keeps the old value when a refresh fails, and tries again on the next read', async () => {
    const { cache, pass } = cacheWithTime(10);
    expect(await cache.get('k', async () => 'first')).toBe('first');
    pass(11);
    expect(await cache.get('k', async () => Promise.reject(new Error('down')))).toBe('first');
    await refreshSettled();
    expect(await cache.get('k', async () => 'second')).toBe('first');
    await refreshSettled();
    expect(await cache.get('k', async () => 'third')).toBe('second');
  });

  it('a refresh that ends after a clear does not bring the old data back', async () => {
    const { cache, pass } = cacheWithTime(10);
    await cache.get('k', async () => 'before');
    pass(11);
    let finish!: (v: string) => void;
    expect(await cache.get('k', () => new Promise<string>((r) => (finish = r)))).toBe('before');
    cache.clear();
    finish('read before the clear');
    await refreshSettled();
    expect(await cache.get('k', async () => 'after')).toBe('after');
  });

  it('a value past its own staleAt is never answered while reloading', async () => {
    let now = 0;
    const { cache, pass } = cacheWithTime(10, () => now);
    await cache.get('k', async () => 'old', { staleAt: () => 5 });
    pass(11);
    now = 6;
    expect(await cache.get('k', async () => 'due', { staleAt: () => null })).toBe('due');
  });
});

