import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
// @ts-expect-error: a plain build script without type declarations
import { buildSendfile } from '../../../scripts/build-native.mjs';
import { type NativeSendfile, loadSendfile } from '../platform/storage/sendfile';

let built: { module: NativeSendfile | null; reason: string | null } | undefined;

/**
 * The native sendfile module, compiled for this test run. It needs a C compiler and Node's headers: CI
 * has both, so there `required` is true and a failed build fails the tests that use it.
 */
export function testSendfile(): { module: NativeSendfile | null; reason: string | null; required: boolean } {
  if (!built) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sendfile-build-'));
    const { file, reason } = buildSendfile(dir) as { file: string | null; reason: string | null };
    built = { module: file ? loadSendfile(file) : null, reason: file ? null : reason };
  }
  return { ...built, required: Boolean(process.env.CI) };
}

/** A native module whose jobs and their outcomes are recorded. */
export function watchedSendfile(module: NativeSendfile) {
  const outcomes: Array<{ errno: number; sent: number }> = [];
  const spy: NativeSendfile = {
    start: vi.fn((socketFd, fileFd, offset, length, idleMs, done) =>
      module.start(socketFd, fileFd, offset, length, idleMs, (errno, sent) => {
        outcomes.push({ errno, sent });
        done(errno, sent);
      }),
    ),
    cancel: vi.fn((job) => module.cancel(job)),
  };
  return { spy, outcomes };
}
