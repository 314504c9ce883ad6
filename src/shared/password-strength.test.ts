import { describe, expect, it } from 'vitest';
import { meterLevel, scorePassword } from './password-strength';

describe('scorePassword (the 0..4 password scorer)', () => {
  it.each([
    ['', 0],
    ['aaaaaaa', 0], // short, one distinct char
    ['abc', 1], // only the distinct-characters point
    ['abcdefgh', 2], // length 8 + distinct
    ['aaaaaaaa', 1], // length 8, few distinct
    ['abcdefghijkl', 3], // 8, 12, distinct
    ['Abcdefgh', 3], // 8, mixed, distinct
    ['abcdefg1', 2], // 8 + 0.5 digit + distinct = 2.5 -> 2
    ['abcdefg1!', 3], // 8 + 0.5 + 0.5 + distinct
    ['Abcdefghijk1!', 4], // 1+1+1+0.5+0.5+1 = 5 -> capped at 4
    ['AAAAaaaa1111!!!!', 4], // 1+1+1+0.5+0.5, not distinct enough
    ['AAAAaaaa1111', 3], // 1+1+1+0.5 = 3.5, not distinct enough
  ])('%j scores %i', (password, expected) => {
    expect(scorePassword(password)).toBe(expected);
  });

  it('always stays between 0 and 4', () => {
    for (const p of ['x', 'Xx1!', 'Very-Long-Password-With-Everything-123!', 'ñÑ٣€'.repeat(10)]) {
      const s = scorePassword(p);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(4);
      expect(Number.isInteger(s)).toBe(true);
    }
  });
});

describe('meterLevel (registration meter)', () => {
  it.each([
    ['', 'Very Weak', 20],
    ['abc', 'Very Weak', 20],
    ['abcdefgh', 'Weak', 40],
    ['Abcdefgh', 'Medium', 60],
    ['Abcdefg1', 'Strong', 80],
    ['Abcdefg1!', 'Very Strong', 100],
  ])('%j is %s (%i%%)', (password, label, percent) => {
    expect(meterLevel(password).level).toEqual({ label, percent });
  });

  it('lists the missing criteria as hints at weak levels only', () => {
    expect(meterLevel('abc').hints).toEqual(['At least 8 characters', 'Uppercase letters', 'Numbers', 'Special characters']);
    expect(meterLevel('abcdefgh').hints).toEqual(['Uppercase letters', 'Numbers', 'Special characters']);
    expect(meterLevel('Abcdefgh').hints).toEqual([]);
  });
});
