/** The free book's confirmation mail (decision 0097). */
import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';

export interface FreeBookMailInput {
  to: string;
  link: string;
  title: string;
  formatLabel: string;
  siteTitle: string;
  /**
   * The newsletter asks new subscribers to confirm and this address has not: the mail is the Thriller
   * Circle's confirmation, and the book comes with it. Otherwise it is the free book's own.
   */
  asNewsletterConfirmation: boolean;
}

export const FREE_BOOK_MAIL_KIND = 'free-book-confirm';

export function freeBookMail(input: FreeBookMailInput): MailMessage {
  const { to, link, title, formatLabel, siteTitle } = input;
  const book = `${title} (${formatLabel})`;
  const paragraphs = input.asNewsletterConfirmation
    ? [
        `Thank you for joining the Thriller Circle, the newsletter of ${siteTitle}.`,
        `Please confirm that this address is yours, so that we may write to you. Your free copy of ${book} then goes straight into your library.`,
        'You will be the first to hear about new books, early extracts, events and giveaways.',
      ]
    : [
        `Here is your free copy of ${book}.`,
        `Please confirm that this address is yours: the book then goes straight into your library, and you join the Thriller Circle, the newsletter of ${siteTitle} (every mail of it has a one-click unsubscribe link).`,
      ];
  const action = input.asNewsletterConfirmation ? 'Confirm and get your book' : 'Get your free book';
  const footer = 'The link works once, within 24 hours. If you did not ask for this, ignore this mail: nothing happens until you press the button on the page it opens.';
  return {
    to,
    kind: FREE_BOOK_MAIL_KIND,
    subject: input.asNewsletterConfirmation ? `Confirm your subscription and get ${title}` : `Your free copy of ${title}: confirm your email`,
    text: [...paragraphs, `${action}: ${link}`, footer].join('\n\n') + '\n',
    html: `<!doctype html><html><body style="font-family:Georgia,serif;background:#09080a;color:#ede5d5;padding:24px">
<h1 style="font-size:22px;color:#f7f1e6">${escapeMarkup(input.asNewsletterConfirmation ? 'Welcome to the Thriller Circle' : `Your free copy of ${title}`)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.6">${escapeMarkup(p)}</p>`).join('\n')}
<p><a href="${escapeMarkup(link)}" style="display:inline-block;padding:10px 18px;background:#b3141c;color:#ffffff;text-decoration:none;border-radius:6px">${escapeMarkup(action)}</a></p>
<p style="font-size:12px;color:#a2978a">${escapeMarkup(footer)}</p>
</body></html>`,
  };
}
