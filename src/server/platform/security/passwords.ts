import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's minimum profile: 19 MiB memory, 2 passes. */
export const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */ as const, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };

/**
 * Hashing runs on libuv's thread pool (never on the event loop); this gate bounds how many run at once so
 * a burst of sign-ins cannot claim unbounded memory (each holds 19 MiB while it runs), and keeps them to
 * the cores the process may use: more hashes at once than cores only take turns on them, each evicting
 * the others' 19 MiB from the caches (on one core: 91-97 verifies a second one at a time, 68-76 four at
 * once), and they leave pool threads free for file reads.
 */
class Gate {
  active = 0;
  /** Highest number ever running at once: lets tests (and ops) see the bound hold. */
  peak = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

export const MAX_CONCURRENT_HASHES = Math.min(4, os.availableParallelism());
const gate = new Gate(MAX_CONCURRENT_HASHES);

export function hashingStats(): { active: number; peak: number } {
  return { active: gate.active, peak: gate.peak };
}

export function hashPassword(password: string): Promise<string> {
  return gate.run(() => hash(password.normalize('NFC'), ARGON2_OPTIONS));
}

/** False for an account without a password (one made by an emailed sign-in link, decision 0084). */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return false;
  try {
    return await gate.run(() => verify(passwordHash, password.normalize('NFC')));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/** Spends the same work as a real check, so an unknown account answers in the same time as a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-just-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
