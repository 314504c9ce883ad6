import { escapeMarkup, unescapeMarkup } from '../../platform/http/markup';
import { hmac, safeEqual } from '../../platform/security/crypto';

/** Links and pictures in a post may be site-relative; in a mail they must name the site. */
export function absolutize(html: string, publicUrl: URL): string {
  return html.replace(/(\s(?:href|src)=")\/(?!\/)/g, `$1${publicUrl.origin}/`);
}

const HREF = /(<a\s[^>]*?href=")([^"]*)(")/gi;
const isWebLink = (href: string) => /^https?:\/\//i.test(href);

/**
 * The web links of a broadcast's body as the mail carries them (absolute, in the order they appear, each
 * once). Only http(s) links are tracked: a mailto: or tel: link opens the reader's own program, and a
 * redirect in front of it would only break it.
 */
export function mailLinks(body: string, publicUrl: URL): string[] {
  const links = new Set<string>();
  for (const match of absolutize(body, publicUrl).matchAll(HREF)) {
    const href = unescapeMarkup(match[2]);
    if (isWebLink(href)) links.add(href);
  }
  return [...links];
}

/**
 * The signature of a tracked link covers the broadcast and the target, under the server secret: the link is
 * worked out again from those two alone, so a send resumed in another process writes the same links, and a
 * link edited to another broadcast or target no longer verifies.
 */
export function clickSignature(secret: string, broadcastId: number, target: string): string {
  return hmac(secret, `broadcast-click:${broadcastId}:${target}`);
}

export function verifyClickSignature(secret: string, broadcastId: number, target: string, signature: string): boolean {
  return safeEqual(clickSignature(secret, broadcastId, target), signature);
}

/** `/r/{broadcast}/{signature}?u={target}`: the address a link in the mail goes through. */
export function clickUrl(publicUrl: URL, secret: string, broadcastId: number, target: string): string {
  const url = new URL(`/r/${broadcastId}/${clickSignature(secret, broadcastId, target)}`, publicUrl);
  url.searchParams.set('u', target);
  return url.toString();
}

/** The body with each web link pointed through the broadcast's click redirect (HTML, so the plain text follows). */
export function trackLinks(body: string, publicUrl: URL, secret: string, broadcastId: number): string {
  return body.replace(HREF, (whole, start: string, href: string, end: string) => {
    const target = unescapeMarkup(href);
    return isWebLink(target) ? `${start}${escapeMarkup(clickUrl(publicUrl, secret, broadcastId, target))}${end}` : whole;
  });
}
