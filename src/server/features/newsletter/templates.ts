import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';

/**
 * The welcome to a new subscriber, with the one-click unsubscribe link (RFC 8058 headers) and, when the
 * site asks new subscribers to confirm, the "Confirm your subscription" link (decision 0069).
 */
export function welcomeMail(to: string, siteTitle: string, link: string, confirmLink: string | null = null): MailMessage {
  return {
    to,
    subject: `Welcome to the Thriller Circle`,
    text: [
      `Thank you for joining the Thriller Circle, the newsletter of ${siteTitle}.`,
      '',
      ...(confirmLink ? ['Please confirm that this address is yours, so that we may write to you.', `Confirm your subscription: ${confirmLink}`, ''] : []),
      'You will be the first to hear about new books, early extracts, events and giveaways.',
      '',
      `If you did not ask for this, or change your mind, unsubscribe with one click: ${link}`,
    ].join('\n'),
    html: welcomeHtml(siteTitle, link, confirmLink),
    headers: {
      'List-Unsubscribe': `<${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    kind: 'newsletter-welcome',
  };
}

function welcomeHtml(siteTitle: string, link: string, confirmLink: string | null): string {
  const confirm = confirmLink
    ? `<p>Please confirm that this address is yours, so that we may write to you.</p>
<p><a href="${escapeMarkup(confirmLink)}" style="display:inline-block;padding:10px 18px;background:#b3141c;color:#ffffff;text-decoration:none;border-radius:6px">Confirm your subscription</a></p>
`
    : '';
  return `<!doctype html><html><body style="font-family:Georgia,serif;background:#09080a;color:#ede5d5;padding:24px">
<h1 style="font-size:22px;color:#f7f1e6">Welcome to the Thriller Circle</h1>
<p>Thank you for joining the newsletter of <em>${escapeMarkup(siteTitle)}</em>.</p>
${confirm}<p>You will be the first to hear about new books, early extracts, events and giveaways.</p>
<p style="font-size:12px;color:#a2978a">Changed your mind? <a href="${escapeMarkup(link)}" style="color:#ef5a60">Unsubscribe with one click</a>.</p>
</body></html>`;
}
