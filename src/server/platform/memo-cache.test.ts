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
