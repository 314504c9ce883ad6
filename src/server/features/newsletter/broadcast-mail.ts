import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup, unescapeMarkup } from '../../platform/http/markup';
import { absolutize, trackLinks } from './broadcast-links';

export const BROADCAST_KIND = 'broadcast';
export const BROADCAST_TEST_KIND = 'broadcast-test';

export interface BroadcastContent {
  subject: string;
  previewText: string;
  /** Sanitized post HTML. */
  body: string;
}

/**
 * The plain-text part beside the HTML: paragraphs and line breaks kept, a link's address written after its
 * words, every other tag dropped.
 */
export function htmlToText(html: string): string {
  return unescapeMarkup(
    html
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
      .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, words: string) => {
        const label = words.replace(/<[^>]+>/g, '').trim();
        return label && label !== href ? `${label} (${href})` : href;
      })
      .replace(/<li[^>]*>/gi, '\n- ')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|h[1-6]|blockquote|ul|ol|figure|div)>/gi, '\n\n')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * One subscriber's copy of a broadcast: the post HTML in the site's mail frame with the preview text as the
 * inbox's preview line, the same words as plain text, and the personal unsubscribe link in the footer and in
 * the RFC 8058 headers (one click from the mail client). With `track`, every web link of the body goes through
 * the broadcast's click redirect (decision 0090), in the HTML and so in the plain text made from it; the
 * unsubscribe link never does (it must work straight from the mail client, and is personal).
 */
export function broadcastMail(
  to: string,
  content: BroadcastContent,
  options: {
    siteTitle: string;
    publicUrl: URL;
    unsubscribeLink: string;
    kind?: string;
    track?: { broadcastId: number; secret: string };
  },
): MailMessage {
  const absolute = absolutize(content.body, options.publicUrl);
  const body = options.track ? trackLinks(absolute, options.publicUrl, options.track.secret, options.track.broadcastId) : absolute;
  const link = escapeMarkup(options.unsubscribeLink);
  // The preview line is hidden text at the top that inbox lists show after the subject.
  const preheader = content.previewText
    ? `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${escapeMarkup(content.previewText)}</div>`
    : '';
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeMarkup(content.subject)}</title></head>
<body style="margin:0;background:#09080a;color:#ede5d5;font-family:Georgia,serif">${preheader}
<div style="max-width:600px;margin:0 auto;padding:24px;line-height:1.6">
<h1 style="font-size:24px;color:#f7f1e6">${escapeMarkup(content.subject)}</h1>
${body}
<hr style="border:0;border-top:1px solid #3a3433;margin:32px 0 16px">
<p style="font-size:12px;color:#a2978a">You receive this as a member of the Thriller Circle, the newsletter of <em>${escapeMarkup(options.siteTitle)}</em>. <a href="${link}" style="color:#ef5a60">Unsubscribe with one click</a>.</p>
</div></body></html>`;
  const text = [
    content.subject,
    '',
    htmlToText(body),
    '',
    '--',
    `You receive this as a member of the Thriller Circle, the newsletter of ${options.siteTitle}.`,
    `Unsubscribe with one click: ${options.unsubscribeLink}`,
  ].join('\n');
  return {
    to,
    subject: content.subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${options.unsubscribeLink}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    kind: options.kind ?? BROADCAST_KIND,
  };
}
