/** The mails of review copies: the approval with its sign-in link, and the reminder to post a review. */
import { formatLabel } from '@shared/constants';
import type { MailMessage } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';

const SITE = 'What We Owe the Dead';

function page(heading: string, paragraphs: string[], action: { label: string; href: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.6">${escapeMarkup(p)}</p>`).join('');
  return `<!doctype html><html><body style="font-family:Georgia,serif;color:#1a1a1a;background:#f6f5f3;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;padding:32px;border-radius:8px">
<h1 style="font-size:22px;margin:0 0 20px">${escapeMarkup(heading)}</h1>${body}
<p style="margin:24px 0"><a href="${escapeMarkup(action.href)}" style="background:#b91c1c;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeMarkup(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, copy this address into your browser:<br><span style="word-break:break-all">${escapeMarkup(action.href)}</span></p>
<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeMarkup(SITE)}</p></div></body></html>`;
}

export interface ApprovalMailInput {
  to: string;
  name: string;
  bookTitle: string;
  format: string;
  signInUrl: string;
  reviewPageUrl: string;
  loginUrl: string;
}

/** Approval: the copy is in the reader's library; the link signs them in without a password. */
export function approvalMail(input: ApprovalMailInput): MailMessage {
  const item = `${input.bookTitle} (${formatLabel(input.format)})`;
  const paragraphs = [
    `Hello ${input.name},`,
    `Your application for a review copy was approved: ${item} is now in your library, marked with your name.`,
    'Sign in with the link below (no password needed; it works once, within 15 minutes). In your library you can read the book in your browser, download it or send it to your Kindle.',
    `If the link has expired, ask for a new one on the sign-in page with this email address: ${input.loginUrl}`,
    `When your review is online, post its link here so we stop reminding you: ${input.reviewPageUrl}`,
  ];
  return {
    to: input.to,
    kind: 'review-copy-approved',
    subject: `Your review copy of ${input.bookTitle}`,
    text: `${paragraphs.join('\n\n')}\n\nSign in and read: ${input.signInUrl}\n\n${SITE}\n`,
    html: page('Your review copy is ready', paragraphs, { label: 'Sign in and read', href: input.signInUrl }),
  };
}

export interface ReminderMailInput {
  to: string;
  name: string;
  bookTitle: string;
  reviewPageUrl: string;
}

/** The reminder, every N days until a review link is posted. */
export function reminderMail(input: ReminderMailInput): MailMessage {
  const paragraphs = [
    `Hello ${input.name},`,
    `We hope you are enjoying your review copy of ${input.bookTitle}.`,
    'Once your review is online (a blog, a shop, Goodreads, a video), please post its link: it takes a moment, and we stop sending these reminders as soon as you do.',
  ];
  return {
    to: input.to,
    kind: 'review-copy-reminder',
    subject: `A reminder about your review of ${input.bookTitle}`,
    text: `${paragraphs.join('\n\n')}\n\nPost your review: ${input.reviewPageUrl}\n\n${SITE}\n`,
    html: page('Post your review', paragraphs, { label: 'Post your review', href: input.reviewPageUrl }),
  };
}
