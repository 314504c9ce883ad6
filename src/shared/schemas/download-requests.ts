/**
 * The one download (issue 25 point 4): what the reader is told before spending it, the resume of an
 * interrupted transfer, and "Need another download?" with the admin's one-click grant.
 */
import { z } from 'zod';
import { DIGITAL_FORMATS } from '../constants';
import { dbId, text } from './common';

export const DOWNLOAD_REQUEST_MESSAGES = {
  sent: 'Your request has been sent to the author. We will email you as soon as your download is ready again.',
  alreadyPending: 'You have already asked for another download of this format. We will email you as soon as it is granted.',
  notUsed: 'Your download of this format has not been used yet.',
  stillOpen: 'Your download is still open: resume it from your library before asking for another.',
  notYours: 'You have not purchased this format',
  alreadyGranted: 'This request has already been granted.',
  notFound: 'Download request not found',
  noOpenLink: 'There is no interrupted download to resume. Download links are valid for 10 minutes.',
} as const;

/** POST /api/library/download-requests: the purchase (a library row) whose used download the reader asks back. */
export const downloadRequestInputSchema = z.object({ purchaseId: dbId() });

export const downloadRequestSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'granted']),
  requestedAt: text(),
  grantedAt: text().nullable(),
});
export type DownloadRequest = z.infer<typeof downloadRequestSchema>;

export const downloadRequestAnswerSchema = z.object({
  success: z.boolean(),
  message: text(),
  request: downloadRequestSchema,
});

/** What the admin sees of one request (Orders page, "Download requests"). */
export const adminDownloadRequestSchema = downloadRequestSchema.extend({
  purchaseId: z.number().int(),
  orderReference: text(),
  format: z.enum(DIGITAL_FORMATS),
  book: z.object({ id: z.number().int(), title: text() }),
  reader: z.object({ id: z.number().int(), name: text(), email: text() }),
});
export type AdminDownloadRequest = z.infer<typeof adminDownloadRequestSchema>;
export const adminDownloadRequestsSchema = z.object({ requests: z.array(adminDownloadRequestSchema) });

export const purchaseIdParams = z.object({ purchaseId: dbId() });
