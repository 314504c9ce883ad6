import { formatLabel } from '@shared/constants';
import type { MailMessage } from '../../platform/mail/mail';

export interface ShippedMailInput {
  to: string;
  name: string;
  title: string;
  format: string;
  orderReference: string;
  tracking: { carrier: string; number: string; url: string | null } | null;
}

function trackingLines(tracking: ShippedMailInput['tracking']): string[] {
  if (!tracking) return [];
  return ['', `Carrier: ${tracking.carrier}`, `Tracking number: ${tracking.number}`, ...(tracking.url ? [`Track your parcel: ${tracking.url}`] : [])];
}

/** The buyer of a hardcover or paperback hears the day it leaves. */
export function orderShippedMail(input: ShippedMailInput): MailMessage {
  const item = formatLabel(input.format).toLowerCase();
  return {
    to: input.to,
    subject: `Your ${item} of ${input.title} is on its way`,
    text: [
      `Hello ${input.name},`,
      '',
      `Good news: your ${item} copy of ${input.title} (order ${input.orderReference}) has been dispatched today.`,
      ...trackingLines(input.tracking),
      '',
      'Thank you for reading.',
    ].join('\n'),
    kind: 'order-shipped',
  };
}
