import { formatLabel, isDigitalFormat } from '@shared/constants';
import { formatReleaseDate } from '@shared/schemas/pre-orders';
import type { MailMessage } from '../../platform/mail';

/** The release-day mail to a pre-order buyer: the book is out, and where to find it. */
export function releaseMail(input: { to: string; name: string; title: string; formats: string[]; releaseAt: Date; publicUrl: URL }): MailMessage {
  const digital = input.formats.some(isDigitalFormat);
  const labels = input.formats.map(formatLabel).join(', ');
  const link = new URL(digital ? '/profile#library' : '/profile', input.publicUrl).toString();
  const next = digital
    ? 'Your pre-order is now in your library, ready to download:'
    : 'Your pre-ordered copy is being prepared for shipping. You can follow it in your account:';
  return {
    to: input.to,
    subject: `${input.title} is out today`,
    text: [
      `Hello ${input.name},`,
      '',
      `${input.title} is out (${formatReleaseDate(input.releaseAt)}). Thank you for pre-ordering it (${labels}).`,
      '',
      next,
      link,
    ].join('\n'),
    kind: 'release',
  };
}
