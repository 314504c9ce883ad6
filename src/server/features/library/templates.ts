import { formatLabel } from '@shared/constants';
import type { MailMessage } from '../../platform/mail/mail';

/** To the author: a reader whose one download is spent asks for another (granted on the Orders page). */
export function downloadRequestMail(input: {
  to: string;
  reader: { name: string; email: string };
  title: string;
  format: string;
  orderReference: string;
  publicUrl: URL;
}): MailMessage {
  return {
    to: input.to,
    subject: `Download request: ${input.title} (${formatLabel(input.format)})`,
    text: [
      `${input.reader.name} (${input.reader.email}) has used their one download of the ${formatLabel(input.format)} of ${input.title} and asks for another (order ${input.orderReference}).`,
      '',
      'You can grant it in one click on the Orders page:',
      new URL('/admin/orders', input.publicUrl).toString(),
    ].join('\n'),
    kind: 'download-request',
  };
}

/** To the reader: the author granted another download; it waits in their library. */
export function downloadGrantedMail(input: { to: string; name: string; title: string; format: string; publicUrl: URL }): MailMessage {
  return {
    to: input.to,
    subject: `Your ${formatLabel(input.format)} of ${input.title} can be downloaded again`,
    text: [
      `Hello ${input.name},`,
      '',
      `The author has granted you another download of the ${formatLabel(input.format)} of ${input.title}. It is waiting in your library:`,
      new URL('/profile#library', input.publicUrl).toString(),
      '',
      'As before, the download can be used once, on one device. Reading in the browser never uses it.',
    ].join('\n'),
    kind: 'download-granted',
  };
}
