import { formatLabel } from '@shared/constants';
import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';


export interface GiftMailInput {
  to: string;
  recipientName: string;
  from: string;
  message: string | null;
  bookTitle: string;
  format: string;
  claimUrl: string;
}

/** The recipient's mail: who it is from, the message, and the one link that claims it. */
export function giftMail(input: GiftMailInput): MailMessage {
  const item = `${input.bookTitle} (${formatLabel(input.format)})`;
  const text = [
    `Hello ${input.recipientName},`,
    '',
    `${input.from} has given you ${item}.`,
    ...(input.message ? ['', 'Their message:', input.message] : []),
    '',
    'Open this link to claim your gift. You can sign in or create a free account there, with any email address:',
    input.claimUrl,
    '',
    'The link works once: after you claim it, the book stays in your library.',
  ].join('\n');
  const html = `<p>Hello ${escapeMarkup(input.recipientName)},</p>
<p>${escapeMarkup(input.from)} has given you <strong>${escapeMarkup(item)}</strong>.</p>
${input.message ? `<blockquote style="white-space:pre-line">${escapeMarkup(input.message)}</blockquote>` : ''}
<p><a href="${escapeMarkup(input.claimUrl)}">Claim your gift</a></p>
<p>You can sign in or create a free account there, with any email address. The link works once: after you claim it, the book stays in your library.</p>`;
  return { to: input.to, subject: `${input.from} has sent you a gift: ${input.bookTitle}`, text, html, kind: 'gift' };
}
