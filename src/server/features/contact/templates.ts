import type { ContactInput } from '@shared/schemas/contact';
import type { MailMessage } from '../../platform/mail/mail';

/** The author's copy of a contact message (#id); replying from the mail client answers the visitor. */
export function contactMail(authorEmail: string, id: number, input: ContactInput): MailMessage {
  return {
    to: authorEmail,
    subject: `[Website contact] ${input.subject}: ${input.name}`.slice(0, 200),
    text: [
      `A new message arrived through the website contact form (#${id}).`,
      '',
      `Name: ${input.name}`,
      `Email: ${input.email}`,
      `Subject: ${input.subject}`,
      '',
      input.message,
    ].join('\n'),
    headers: { 'Reply-To': input.email },
    kind: 'contact',
  };
}
