import { createHash } from 'node:crypto';
import type { Random } from '../../platform/security/crypto';

/**
 * The covert mark carried by every personal copy: a fixed prefix and 20 hex digits, random per purchase and
 * format. It looks like an ordinary class name in the markup and an identifier in the metadata.
 */
const PREFIX = 'wwdc';
export const FINGERPRINT_PATTERN = /wwdc[0-9a-f]{20}/g;

export function newFingerprint(random: Random): string {
  return PREFIX + createHash('sha256').update(random.token(24)).digest('hex').slice(0, 20);
}

/** Every distinct mark in a text, in order of first appearance. */
export function fingerprintsIn(text: string): string[] {
  return [...new Set(text.match(FINGERPRINT_PATTERN) ?? [])];
}
