import { describe, expect, it } from 'vitest';
import { changePasswordRules } from '@shared/schemas/auth';
import { isCommonPassword, COMMON_PASSWORDS } from './common-passwords';
import { generatePassword } from './password-generator';

describe('generatePassword', () => {
  it('always meets the change-password rules', () => {
    for (let i = 0; i < 500; i += 1) expect(changePasswordRules.safeParse(generatePassword()).success).toBe(true);
  });
  it('spreads characters over the whole alphabet (no fixed positions for the required classes)', () => {
    const firstChars = new Set(Array.from({ length: 300 }, () => generatePassword()[0]));
    expect(firstChars.size).toBeGreaterThan(30);
  });
});

describe('common passwords', () => {
  it('holds a few hundred entries and matches in any case', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(300);
    expect(isCommonPassword('P@ssw0rd')).toBe(true);
    expect(isCommonPassword('QWERTY123!')).toBe(true);
    expect(isCommonPassword('Lantern-Harbour-77!')).toBe(false);
  });
});
