import type { BroadcastStatus } from '@shared/schemas/broadcasts';

export const BROADCAST_STATUS_LABELS: Record<BroadcastStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
};
