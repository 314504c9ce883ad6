/** The account mails: a password-reset link and a notice that the password changed. */
import type { MailMessage } from '../../platform/mail/mail';
import type { AppDeps } from '../../deps';
import { escapeMarkup } from '../../platform/http/markup';

/** The site's address for links in mails: always the configured one (a Host header could point anywhere). */
export function siteUrl(deps: Pick<AppDeps, 'config'>): string {
  return deps.config.PUBLIC_URL.replace(/\/+$/, '');
}

const SITE = 'What We Owe the Dead';


function layout(heading: string, paragraphs: string[], action?: { label: string; href: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.6">${escapeMarkup(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeMarkup(action.href)}" style="background:#b91c1c;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeMarkup(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, copy this address into your browser:<br><span style="word-break:break-all">${escapeMarkup(action.href)}</span></p>`
    : '';
  return `<!doctype html><html><body style="font-family:Georgia,serif;color:#1a1a1a;background:#f6f5f3;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;padding:32px;border-radius:8px">
<h1 style="font-size:22px;margin:0 0 20px">${escapeMarkup(heading)}</h1>${body}${button}
<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeMarkup(SITE)}</p></div></body></html>`;
}

export function passwordResetMail(to: string, name: string, link: string): MailMessage {
  const paragraphs = [
    `Hello ${name},`,
    `Someone (hopefully you) asked to reset the password of your ${SITE} account.`,
    'The link below is valid for 1 hour and works once. If you did not ask for it, you can ignore this mail: your password stays as it is.',
  ];
  return {
    to,
    kind: 'password-reset',
    subject: `Reset your ${SITE} password`,
    text: `${paragraphs.join('\n\n')}\n\nReset your password: ${link}\n\n${SITE}\n`,
    html: layout('Reset your password', paragraphs, { label: 'Reset Password', href: link }),
  };
}

export function passwordChangedMail(to: string, name: string, when: Date, siteUrl: string): MailMessage {
  const paragraphs = [
    `Hello ${name},`,
    `The password of your ${SITE} account was changed on ${when.toUTCString()}. Other devices signed in to your account have been signed out.`,
    `If this was not you, reset your password right away at ${siteUrl}/forgot-password and contact us.`,
  ];
  return {
    to,
    kind: 'password-changed',
    subject: `Your ${SITE} password was changed`,
    text: `${paragraphs.join('\n\n')}\n\n${SITE}\n`,
    html: layout('Your password was changed', paragraphs),
  };
}

/** The emailed sign-in link (decision 0084); a new reader's mail says the link also creates the account. */
export function loginLinkMail(to: string, link: string, newReader: boolean): MailMessage {
  const paragraphs = newReader
    ? [
        'Hello,',
        `Use the button below to create your ${SITE} account and sign in. You do not need a password: you can set one later in Account Details.`,
        'The link is valid for 15 minutes and works once. If you did not ask for it, you can ignore this mail and no account will be made.',
      ]
    : [
        'Hello,',
        `Someone (hopefully you) asked to sign in to your ${SITE} account with a link.`,
        'The link below is valid for 15 minutes and works once. If you did not ask for it, you can ignore this mail.',
      ];
  return {
    to,
    kind: 'login-link',
    subject: `Your sign-in link for ${SITE}`,
    text: `${paragraphs.join('\n\n')}\n\nSign in: ${link}\n\n${SITE}\n`,
    html: layout('Sign in to your account', paragraphs, { label: 'Sign In', href: link }),
  };
}
