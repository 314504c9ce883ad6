import { randomInt } from 'node:crypto';
import { changePasswordRules } from '@shared/schemas/auth';

// Look-alike characters (0/O, 1/l/I) are left out so a suggestion can be copied by eye.
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const SPECIAL = '!@#$%^&*-_=+?';
const ALL = UPPER + LOWER + DIGITS + SPECIAL;

export const GENERATED_PASSWORD_LENGTH = 20;

const pick = (set: string) => set[randomInt(set.length)];

/**
 * A password meeting the change-password rules, from the CSPRNG: one character of each class, the rest
 * from the whole alphabet, then a Fisher-Yates shuffle so the guaranteed characters have no fixed place.
 * 20 characters over a 70-symbol alphabet is about 122 bits.
 */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SPECIAL)];
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  const password = chars.join('');
  // Defensive: the rules are the contract; never hand out something the change form would refuse.
  return changePasswordRules.safeParse(password).success ? password : generatePassword(length);
}
