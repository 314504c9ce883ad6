import { z } from 'zod';
import { EMAIL_PATTERN, text } from './common';

/** Amazon's Send to Kindle addresses: a name at kindle.com or free.kindle.com. */
export const KINDLE_DOMAINS = ['kindle.com', 'free.kindle.com'] as const;
export const MAX_KINDLE_DEVICES = 3;
export const KINDLE_SENDS_PER_DAY = 5;
/** Amazon's limit for a personal document sent by mail. */
export const KINDLE_MAX_BYTES = 50 * 1024 * 1024;

export const KINDLE_ADDRESS_MESSAGE = 'Enter your Kindle address, ending in @kindle.com or @free.kindle.com';

export function isKindleAddress(address: string): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return EMAIL_PATTERN.test(address) && (KINDLE_DOMAINS as readonly string[]).includes(domain);
}

export const kindleAddressSchema = text()
  .trim()
  .min(1, KINDLE_ADDRESS_MESSAGE)
  .max(254, KINDLE_ADDRESS_MESSAGE)
  .refine(isKindleAddress, KINDLE_ADDRESS_MESSAGE)
  .transform((s) => s.toLowerCase());

export const kindleAddressInputSchema = z.object({ address: kindleAddressSchema });
export type KindleAddressInput = z.input<typeof kindleAddressInputSchema>;

export const kindleDeviceSchema = z.object({ id: z.number().int(), address: text(), createdAt: text() });
export type KindleDevice = z.infer<typeof kindleDeviceSchema>;

export const kindleDevicesAnswerSchema = z.object({
  devices: z.array(kindleDeviceSchema),
  /** The address books are sent from, to add to Amazon's approved senders. */
  senderAddress: text(),
  maxDevices: z.number().int(),
  sendsToday: z.number().int(),
  dailyLimit: z.number().int(),
});
export type KindleDevicesAnswer = z.infer<typeof kindleDevicesAnswerSchema>;

export const sendToKindleAnswerSchema = z.object({ success: z.literal(true), message: text(), sendId: z.number().int() });
export type SendToKindleAnswer = z.infer<typeof sendToKindleAnswerSchema>;

/** A Send to Kindle as the admin sees it on the order. */
export const kindleSendSchema = z.object({
  id: z.number().int(),
  address: text(),
  createdAt: text(),
  /** The mail's state: pending, sent, failed or kept (no mail server configured). */
  mailStatus: text().nullable(),
});
export type KindleSend = z.infer<typeof kindleSendSchema>;

/** What Trace a Copy finds out about a file. */
export const traceResultSchema = z.object({
  purchaseId: z.number().int(),
  userId: z.number().int(),
  username: text(),
  /** The reader's display name (their username when they gave none), email and order reference. */
  name: text(),
  email: text(),
  orderReference: text(),
  format: text(),
  purchasedAt: text(),
});
export type TraceResult = z.infer<typeof traceResultSchema>;

export const TRACE_MAX_BYTES = 100 * 1024 * 1024;
export const TRACE_NOT_FOUND_MESSAGE =
  'No copy made by this site was found in this file: it carries no purchase mark we know.';
