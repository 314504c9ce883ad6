import { formatLabel, isDigitalFormat } from '@shared/constants';
import { formatReleaseDate } from '@shared/schemas/pre-orders';
import type { MailMessage } from '../../platform/mail/mail';

const labels = (formats: string[]) => formats.map(formatLabel).join(', ');

/**
 * The release-day mail to a pre-order buyer: the book is out, and where to find it. A digital format
 * without its file yet is named as not ready, with the promise of a second mail (decision 0056).
 */
export function releaseMail(input: {
  to: string;
  name: string;
  title: string;
  /** Formats the buyer can have today (a digital one has its file). */
  formats: string[];
  /** Digital formats whose file is not uploaded yet. */
  waiting?: string[];
  releaseAt: Date;
  publicUrl: URL;
}): MailMessage {
  const waiting = input.waiting ?? [];
  const digital = input.formats.some(isDigitalFormat);
  const all = [...input.formats, ...waiting];
  const link = new URL(digital || waiting.length > 0 ? '/profile#library' : '/profile', input.publicUrl).toString();
  const lines = [`Hello ${input.name},`, '', `${input.title} is out (${formatReleaseDate(input.releaseAt)}). Thank you for pre-ordering it (${labels(all)}).`, ''];
  const physical = input.formats.filter((f) => !isDigitalFormat(f));
  const ready = input.formats.filter(isDigitalFormat);
  if (ready.length > 0) lines.push(`Your ${labels(ready)} ${ready.length === 1 ? 'is' : 'are'} now in your library, ready to download.`);
  if (physical.length > 0) lines.push(`Your pre-ordered ${labels(physical)} ${physical.length === 1 ? 'is' : 'are'} being prepared for shipping.`);
  if (waiting.length > 0) {
    lines.push(`Your ${labels(waiting)} ${waiting.length === 1 ? 'is' : 'are'} not ready yet: we will email you again the moment ${waiting.length === 1 ? 'it is' : 'they are'} in your library.`);
  }
  lines.push('', digital || waiting.length > 0 ? 'Your library:' : 'You can follow it in your account:', link);
  return { to: input.to, subject: `${input.title} is out today`, text: lines.join('\n'), kind: 'release' };
}

/** The second mail for a format that was not ready at the release: its file is in the library now. */
export function fileReadyMail(input: { to: string; name: string; title: string; formats: string[]; publicUrl: URL }): MailMessage {
  const names = labels(input.formats);
  return {
    to: input.to,
    subject: `Your ${names} of ${input.title} is ready to download`,
    text: [
      `Hello ${input.name},`,
      '',
      `As promised: your ${names} of ${input.title} is now in your library, ready to download.`,
      '',
      new URL('/profile#library', input.publicUrl).toString(),
    ].join('\n'),
    kind: 'release',
  };
}
