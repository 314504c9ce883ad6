/**
 * Password strength, two views (docs/PRODUCT.md, Register; Password scorer):
 * - `scorePassword`: the 0..4 scorer with its exact point rules.
 * - `meterLevel`: the registration meter's five levels (Very Weak 20% .. Very Strong 100%) with hints
 *   for what is missing. The meter counts the five classic criteria, so each added criterion moves it up
 *   one level and the hints say exactly which are missing.
 */

const SPECIAL = /[^\p{L}\p{N}]/u;

/** Empty 0; +1 length >= 8; +1 length >= 12; +1 mixed case; +0.5 digit; +0.5 special; +1 if distinct chars >= half the length; floored, at most 4. */
export function scorePassword(password: string): number {
  if (!password) return 0;
  let score = 0;
  const length = [...password].length;
  if (length >= 8) score += 1;
  if (length >= 12) score += 1;
  if (/\p{Ll}/u.test(password) && /\p{Lu}/u.test(password)) score += 1;
  if (/\p{N}/u.test(password)) score += 0.5;
  if (SPECIAL.test(password)) score += 0.5;
  if (new Set(password).size >= length / 2) score += 1;
  return Math.min(4, Math.floor(score));
}

export const METER_LEVELS = [
  { label: 'Very Weak', percent: 20 },
  { label: 'Weak', percent: 40 },
  { label: 'Medium', percent: 60 },
  { label: 'Strong', percent: 80 },
  { label: 'Very Strong', percent: 100 },
] as const;
export type MeterLevel = (typeof METER_LEVELS)[number];

export const METER_HINTS = {
  length: 'At least 8 characters',
  upper: 'Uppercase letters',
  lower: 'Lowercase letters',
  number: 'Numbers',
  special: 'Special characters',
} as const;

export interface MeterResult {
  level: MeterLevel;
  /** 0 (Very Weak) .. 4 (Very Strong) */
  index: number;
  /** What is still missing, shown at the weak levels (Very Weak and Weak). */
  hints: string[];
}

export function meterLevel(password: string): MeterResult {
  const checks: Array<[boolean, string]> = [
    [[...password].length >= 8, METER_HINTS.length],
    [/\p{Lu}/u.test(password), METER_HINTS.upper],
    [/\p{Ll}/u.test(password), METER_HINTS.lower],
    [/\p{N}/u.test(password), METER_HINTS.number],
    [SPECIAL.test(password), METER_HINTS.special],
  ];
  const met = checks.filter(([ok]) => ok).length;
  const index = Math.max(0, met - 1);
  return {
    level: METER_LEVELS[index],
    index,
    hints: index <= 1 ? checks.filter(([ok]) => !ok).map(([, hint]) => hint) : [],
  };
}
