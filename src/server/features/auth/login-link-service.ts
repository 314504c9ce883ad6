/**
 * Sign-in by emailed link (decision 0084). A link carries 256 random bits; the row keeps only their hash
 * (salted with the purpose, so no other token of the site can match it). It lasts 15 minutes and is used
 * by one conditional UPDATE, so two tabs (or a replay) cannot both sign in with it. Opening the link only
 * shows a page; the page's button posts the token, so a mail scanner following the link signs no one in.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { LoginLinkReturnTo } from '@shared/schemas/login-link';
import type { AppDeps } from '../../deps';
import { loginLinks } from '../../db/schema';
import { badRequest } from '../../platform/http/errors';
import { createPasswordlessAccount, findAccountByEmail, hashLoginLinkToken, issueLoginLink } from './service';
import { loginLinkMail } from './templates';

export { hashLoginLinkToken, loginLinkUrl } from './service';

export const INVALID_LOGIN_LINK = 'This sign-in link is invalid, has expired or was already used. Please ask for a new one.';

type Deps = Pick<AppDeps, 'database' | 'clock' | 'random' | 'mailer' | 'config'>;

/**
 * Stores a fresh link for `email` and queues its mail, in one transaction. With `createAccount` the link,
 * once used, makes a passwordless account when the address has none; the mail then says so.
 * Other features (the free book, review copies) call this to send a reader in without a password.
 */
export async function sendLoginLink(
  deps: Deps,
  email: string,
  options: { createAccount: boolean; returnTo?: LoginLinkReturnTo; newReader?: boolean },
): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const url = await issueLoginLink(deps, tx, email, options);
    await deps.mailer.enqueue(loginLinkMail(email, url, options.newReader ?? false), tx);
  });
}

/**
 * What a request for a link does, after the (identical) answer has gone: a known address gets a sign-in
 * link; an unknown one gets a link that creates its account only when the request came from a purchase or a
 * gift claim (`returnTo`), and nothing otherwise.
 */
export async function requestLoginLink(deps: Deps, email: string, returnTo?: LoginLinkReturnTo): Promise<'sent' | 'none'> {
  const account = await findAccountByEmail(deps.database.db, email);
  if (account) {
    await sendLoginLink(deps, email, { createAccount: false, returnTo });
    return 'sent';
  }
  if (!returnTo) return 'none';
  await sendLoginLink(deps, email, { createAccount: true, returnTo, newReader: true });
  return 'sent';
}

/**
 * Uses a link: marks it used (only if unused and unexpired) and returns the account to sign in, creating
 * a passwordless one when the link allows it. Refused links change nothing.
 */
export async function useLoginLink(deps: Pick<AppDeps, 'database' | 'clock'>, token: string) {
  const now = deps.clock.now();
  const account = await deps.database.db.transaction(async (tx) => {
    const [link] = await tx
      .update(loginLinks)
      .set({ usedAt: now })
      .where(and(eq(loginLinks.tokenHash, hashLoginLinkToken(token)), isNull(loginLinks.usedAt), gt(loginLinks.expiresAt, now)))
      .returning({ email: loginLinks.email, createAccount: loginLinks.createAccount });
    if (!link) return null;
    const existing = await findAccountByEmail(tx, link.email);
    if (existing) return existing;
    // The address's account is gone (or never was and the link may not make one): the link is spent all the same.
    return link.createAccount ? createPasswordlessAccount(tx, link.email) : null;
  });
  if (!account) throw badRequest(INVALID_LOGIN_LINK, { token: INVALID_LOGIN_LINK });
  return account;
}
