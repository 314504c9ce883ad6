import type { MailMessage } from '../../platform/mail/mail';

/**
 * An attachment name any mail client and Kindle's converter take: letters, digits, dot, dash, underscore
 * (the reader's file is named after the title, which may hold anything).
 */
function safeFileName(name: string, fallback: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 120);
  return cleaned || fallback;
}

export interface KindleMailInput {
  /** The reader's Send to Kindle address. */
  to: string;
  /** The address Amazon must have on the reader's approved list. */
  sender: string;
  title: string;
  orderReference: string;
  /** The personal copy in the file store, attached when the mail is sent. */
  fileKey: string;
  fileName: string;
}

/** The personal EPUB to a Kindle address: Amazon files it by the attachment, the text helps if it does not. */
export function kindleMail(input: KindleMailInput): MailMessage {
  return {
    to: input.to,
    subject: input.title,
    text:
      `Your copy of ${input.title} is attached, sent at your request (order ${input.orderReference}).\n\n` +
      `It should appear in your Kindle library within a few minutes. If it does not, make sure ${input.sender} ` +
      `is on the Approved Personal Document E-mail List in your Amazon account (Content & Devices > Preferences > Personal Document Settings).\n`,
    kind: 'send-to-kindle',
    attachments: [{ fileKey: input.fileKey, fileName: safeFileName(input.fileName, 'book.epub'), contentType: 'application/epub+zip' }],
  };
}
