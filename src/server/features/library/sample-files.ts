import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SEED_FILES, seedFilesDir } from '../../platform/operations/seed';
import type { FileStore } from '../../platform/storage/files';

/**
 * Tells whether a stored digital file is still the sample the seed put in place, so the admin's Digital
 * Files page can say so plainly (a reader buying the audiobook would otherwise get a 27-second sample).
 * The test is the bytes themselves: same size and same SHA-256 as the sample file shipped with the site.
 * Only a file of exactly the sample's size is read and hashed, and each stored key is judged once (an
 * upload always writes a new key).
 */
interface Fingerprint {
  size: number;
  sha256: string;
}

let fingerprints: Promise<Map<string, Fingerprint>> | null = null;
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 1000;

function sampleFingerprints(): Promise<Map<string, Fingerprint>> {
  fingerprints ??= Promise.all(
    SEED_FILES.map(async (sample) => {
      const data = await fs.readFile(path.join(seedFilesDir(), sample.file)).catch(() => null);
      return data ? ([sample.format, { size: data.length, sha256: createHash('sha256').update(data).digest('hex') }] as const) : null;
    }),
  ).then((entries) => new Map(entries.filter((e) => e !== null)));
  return fingerprints;
}

async function hashStored(files: FileStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await files.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function isSeededSample(files: FileStore, asset: { format: string; fileUrl: string; fileSizeKb: number }): Promise<boolean> {
  const sample = (await sampleFingerprints()).get(asset.format);
  if (!sample || Math.ceil(sample.size / 1024) !== asset.fileSizeKb) return false;
  const known = verdicts.get(asset.fileUrl);
  if (known !== undefined) return known;
  let verdict = false;
  try {
    const stat = await files.stat(asset.fileUrl);
    verdict = stat !== null && stat.size === sample.size && (await hashStored(files, asset.fileUrl)) === sample.sha256;
  } catch {
    verdict = false; // unreadable: not something to call a sample
  }
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(asset.fileUrl, verdict);
  return verdict;
}
