import { describe, expect, it } from 'vitest';
import { normalizeUsername, usernameScriptProblem, usernameSkeleton } from './usernames';

describe('username look-alike rules', () => {
  it('gives look-alikes one skeleton, across case, digits, letter pairs and scripts', () => {
    const base = usernameSkeleton('siteadmin');
    for (const alike of ['SiteAdmin', 'siteаdmin', 'ѕіtеаdmіn', 's1teadmin', 'SITEADMlN', 'siteadrnin', 'sitеаdmin', 'ｓｉｔｅａｄｍｉｎ']) {
      expect(usernameSkeleton(alike), alike).toBe(base);
    }
    expect(usernameSkeleton('BOB')).toBe(usernameSkeleton('ВОВ'));
    expect(usernameSkeleton('paypal')).toBe(usernameSkeleton('pаypаl'));
  });

  it('keeps different names apart: accents are visible', () => {
    expect(usernameSkeleton('josé')).not.toBe(usernameSkeleton('jose'));
    expect(usernameSkeleton('jose\u0301')).toBe(usernameSkeleton('josé'));
    expect(usernameSkeleton('mara')).not.toBe(usernameSkeleton('maya'));
  });

  it('allows Latin letters (accented too), digits, dots, dashes and underscores, and nothing mixed', () => {
    for (const ok of ['ada', 'josé', 'Łukasz.K', 'zoë_m', 'nguyễn', 'reader-42']) expect(usernameScriptProblem(normalizeUsername(ok)), ok).toBeNull();
    for (const bad of ['siteаdmin', 'иван', 'αλέξης', 'anna誰', 'user٣']) expect(usernameScriptProblem(normalizeUsername(bad)), bad).not.toBeNull();
    expect(normalizeUsername('ｒｅａｄｅｒ７')).toBe('reader7');
  });
});
