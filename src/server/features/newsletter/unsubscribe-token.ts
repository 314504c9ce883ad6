import { hmac, safeEqual } from '../../platform/security/crypto';

/**
 * The unsubscribe link must work with one click from the mail, without signing in, yet nobody may
 * unsubscribe someone else: the link carries an HMAC of the address under the server secret.
 */
export function unsubscribeToken(secret: string, email: string): string {
  return hmac(secret, `newsletter-unsubscribe:${email.trim().toLowerCase()}`);
}

export function verifyUnsubscribeToken(secret: string, email: string, token: string): boolean {
  return safeEqual(unsubscribeToken(secret, email), token);
}

/** `broadcastId` names the broadcast a link was sent in, so its page can count who left from it. */
export function unsubscribeUrl(publicUrl: URL, secret: string, email: string, broadcastId?: number): string {
  const url = new URL('/api/newsletter/unsubscribe', publicUrl);
  url.searchParams.set('email', email.trim().toLowerCase());
  url.searchParams.set('token', unsubscribeToken(secret, email));
  if (broadcastId !== undefined) url.searchParams.set('b', String(broadcastId));
  return url.toString();
}
