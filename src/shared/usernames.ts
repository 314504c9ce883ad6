/**
 * Usernames that cannot pass for someone else's (decision 0014). A username is NFKC-normalised (full-width
 * and other compatibility forms become plain letters), written in Latin letters only (accented ones
 * included) with ASCII digits, dots, dashes and underscores, and must not share its confusable skeleton
 * with an existing username.
 */

export const USERNAME_LATIN_ONLY = 'Username must use Latin letters (accents are fine), numbers, dots, dashes and underscores';

/** Compatibility forms (full-width, ligatures, circled digits) folded to the plain characters they show. */
export const normalizeUsername = (value: string): string => value.normalize('NFKC');

/**
 * Why the username is not allowed (already NFKC-normalised), or null. One script only: Latin. Letters of
 * Cyrillic, Greek and most other scripts include exact look-alikes of Latin ones, and mixing scripts in
 * one name is how `sitеadmin` with a Cyrillic "е" is made.
 */
export function usernameScriptProblem(value: string): string | null {
  return /^(?:\p{Script=Latin}\p{M}*|[0-9_.-])+$/u.test(value) ? null : USERNAME_LATIN_ONLY;
}

/**
 * Letters and digits that look alike, after lower-casing, each mapped to one representative. A table of
 * our own in the spirit of the Unicode confusables data (UTS #39), coarser because usernames compare
 * case-insensitively: a letter is listed when its small or its capital form passes for a Latin letter.
 * Cyrillic and Greek are covered so that names stored before this rule are compared too.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Latin among itself: I/l/1/i, O/0, and the Latin letters that pass for others.
  '0': 'o', '1': 'l', i: 'l', ı: 'l', ɩ: 'l', ʟ: 'l', ɑ: 'a', ɡ: 'g', ʏ: 'y', ɢ: 'g', ʜ: 'h',
  // Cyrillic
  а: 'a', в: 'b', е: 'e', з: '3', к: 'k', м: 'm', н: 'h', о: 'o', п: 'n', р: 'p', с: 'c', т: 't',
  у: 'y', х: 'x', ь: 'b', ѕ: 's', і: 'l', ј: 'j', һ: 'h', ԛ: 'q', ԝ: 'w', ү: 'y', ӏ: 'l', ԁ: 'd',
  // Greek
  α: 'a', β: 'b', γ: 'y', ε: 'e', ζ: 'z', η: 'h', ι: 'l', κ: 'k', μ: 'm', ν: 'v', ο: 'o', ρ: 'p', τ: 't',
  υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j',
};

// Runs of letters that together pass for one (UTS #39 maps "m" to "rn" and "d" to "cl" the same way).
const SEQUENCES: Array<[RegExp, string]> = [
  [/m/g, 'rn'],
  [/d/g, 'cl'],
  [/w/g, 'vv'],
];

/**
 * The confusable skeleton: two usernames with the same skeleton look alike. Accents are kept (they are
 * visible), so "josé" and "jose" stay different names.
 */
export function usernameSkeleton(value: string): string {
  const lowered = normalizeUsername(value).toLowerCase().normalize('NFD');
  let mapped = '';
  for (const char of lowered) mapped += LOOK_ALIKES[char] ?? char;
  for (const [pattern, replacement] of SEQUENCES) mapped = mapped.replace(pattern, replacement);
  return mapped.normalize('NFC');
}
