import { and, eq, inArray } from 'drizzle-orm';
import { PHYSICAL_FORMATS, isDigitalFormat } from '@shared/constants';
import type { ShipOrder } from '@shared/schemas/admin';
import type { Db } from '../../db/client';
import { books, purchases, users } from '../../db/schema';
import { conflict, notFound } from '../../platform/http/errors';
import { audit, type ActorId } from '../../platform/operations/audit';
import type { Mailer } from '../../platform/mail/mail';
import { orderShippedMail } from './templates';

/**
 * Marks a physical order shipped, with its carrier and tracking number when the parcel has them, and tells
 * the buyer by mail, in one transaction with the change.
 */
export async function shipOrder(db: Db, mailer: Mailer, id: number, tracking: ShipOrder, actorId: ActorId, now: Date): Promise<void> {
  const shipment = {
    shippingCarrier: tracking.carrier ?? null,
    trackingNumber: tracking.trackingNumber ?? null,
    trackingUrl: tracking.trackingUrl ?? null,
  };
  await db.transaction(async (tx) => {
    // One conditional statement: shipping twice, or shipping a download, changes nothing.
    const [row] = await tx
      .update(purchases)
      .set({ status: 'shipped', shippedAt: now, ...shipment })
      .where(and(eq(purchases.id, id), eq(purchases.status, 'completed'), inArray(purchases.format, [...PHYSICAL_FORMATS])))
      .returning({ userId: purchases.userId, bookId: purchases.bookId, format: purchases.format, orderReference: purchases.orderReference });
    if (!row) {
      const [exists] = await tx.select({ format: purchases.format, status: purchases.status }).from(purchases).where(eq(purchases.id, id));
      if (!exists) throw notFound('Order not found');
      if (isDigitalFormat(exists.format)) throw conflict('Digital orders are not shipped');
      throw conflict(exists.status === 'shipped' ? 'This order has already been shipped' : `A ${exists.status} order cannot be shipped`);
    }
    const [buyer] = await tx
      .select({ email: users.email, name: users.displayName, username: users.username, title: books.title })
      .from(users)
      .innerJoin(books, eq(books.id, row.bookId))
      .where(eq(users.id, row.userId));
    const mail = orderShippedMail({
      to: buyer.email,
      name: buyer.name || buyer.username,
      title: buyer.title,
      format: row.format,
      orderReference: row.orderReference,
      tracking: shipment.trackingNumber ? { carrier: shipment.shippingCarrier!, number: shipment.trackingNumber, url: shipment.trackingUrl } : null,
    });
    await mailer.enqueue(mail, tx);
    await audit(
      tx,
      actorId,
      { action: 'order.ship', targetType: 'purchase', targetId: id, details: { orderReference: row.orderReference, carrier: shipment.shippingCarrier, trackingNumber: shipment.trackingNumber } },
      now,
    );
  });
}
