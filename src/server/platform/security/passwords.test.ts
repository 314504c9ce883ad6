import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashingStats, hashPassword, MAX_CONCURRENT_HASHES, verifyAgainstDummy, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('uses argon2id with m=19 MiB, t=2 and verifies NFC-equivalent input', async () => {
    const hash = await hashPassword('Caf\u00e9-Noir-12!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Cafe\u0301-Noir-12!')).toBe(true);
    expect(await verifyPassword(hash, 'Cafe-Noir-12!')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });

  it('bounds concurrent hashes (at most one per core the process may use, and 4) and keeps the event loop responsive during a burst', async () => {
    let ticks = 0;
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks += 1;
    }, 5);
    await Promise.all(Array.from({ length: 16 }, (_, i) => hashPassword(`Burst-Password-${i}!`)));
    clearInterval(timer);
    expect(hashingStats().peak).toBeLessThanOrEqual(MAX_CONCURRENT_HASHES);
    expect(hashingStats().peak).toBeLessThanOrEqual(Math.min(4, os.availableParallelism()));
    expect(hashingStats().active).toBe(0);
    expect(ticks).toBeGreaterThan(5);
    // Hashing runs off the main thread: timers keep firing (a blocked loop would stall for the whole burst).
    expect(maxGap).toBeLessThan(300);
  });
});
