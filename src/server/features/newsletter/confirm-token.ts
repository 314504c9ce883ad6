import { sha256 } from '../../platform/security/crypto';

/**
 * The confirmation link's token is random and lives only in the mail; the row keeps its hash, so a
 * leaked database confirms nobody. The purpose is part of what is hashed, so no other token of the site
 * (reset, gift, download) can ever match a confirmation hash, nor the other way round.
 */
export const hashConfirmToken = (token: string) => sha256(`newsletter-confirm:${token}`);

/** The page the welcome mail links to: it only shows a button (GET never confirms). */
export function confirmUrl(publicUrl: URL, token: string): string {
  const url = new URL('/newsletter/confirm', publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
}
