import { describe, expect, it } from 'vitest';
import { MemoCache } from './memo-cache';

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

  it('reloads after the ttl and never caches failures', async () => {
    const cache = new MemoCache(20);
    let loads = 0;
    expect(await cache.get('k', async () => ++loads)).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(await cache.get('k', async () => ++loads)).toBe(2);
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
