import type { DbOrTx } from '../../db/client';
import { paymentEvents } from '../../db/schema';
import type { PaymentEvent } from '../../platform/payments';

/**
 * Records a provider event by its id and says whether this is its first delivery. The primary key
 * arbitrates, so of any number of deliveries of one event (redeliveries, two instances) exactly one
 * gets true; callers do their work only then, inside the same transaction.
 */
export async function isFirstDelivery(tx: DbOrTx, event: Pick<PaymentEvent, 'id' | 'type'>, now: Date): Promise<boolean> {
  const fresh = await tx
    .insert(paymentEvents)
    .values({ id: event.id, type: event.type, receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return fresh.length > 0;
}
