import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { DIGITAL_FORMATS, formatPrice } from '@shared/constants';
import type { LibraryItem, Order } from '@shared/schemas/library';
import type { Db, DbOrTx } from '../../db/client';
import { books, checkoutSessions, discountCodes, orderLines, orders, purchases } from '../../db/schema';
import { giftSummaries } from '../gifts/service';
import { pendingReleases } from '../pre-orders/service';
import { owned, ownedFormat } from './ownership';
import { openLinks, recordIssuedLink } from './transfers';
import { pendingRequests } from './download-requests';
import { uploadedFormats } from './assets';
import { markEditionDownloaded, updatedFormats } from './edition-notice';

// What other features may use of this one (their only way in).
export { attachmentDisposition } from './download-link';
export { sendOwnedFile } from './file-routes';
export { openMasterFile, openOwnedFile } from './owned-file';
export { type AssetRow, findAsset, toAssetAnswer } from './assets';
export { findEntitledPurchase, ownsAnyFormat, ownsFormat } from './ownership';
export { findOpenLink } from './transfers';
export { grantDownloadRequest, listDownloadRequests, requestAnotherDownload, restoreDownload } from './download-requests';
export { addIncludedEditions, hasPdfEdition, type OwnedRow } from './pdf-edition';
export { queueEditionNotice } from './edition-notice';
export { listAdminFiles, recordUpload, requireBook } from './uploads';
export { resetDownloadAllowance } from './allowance';

const bookColumns = { id: books.id, title: books.title, coverImage: books.coverImage };

/** Library items (docs/PRODUCT.md, Library): the caller's paid digital purchases, newest first. */
export async function listLibrary(db: DbOrTx, userId: number, now = new Date()): Promise<LibraryItem[]> {
  const rows = await db
    .select({
      id: purchases.id,
      bookId: purchases.bookId,
      userId: purchases.userId,
      format: purchases.format,
      downloadCount: purchases.downloadCount,
      maxDownloads: purchases.maxDownloads,
      downloadUsed: purchases.downloadUsed,
      lastDownloaded: purchases.lastDownloaded,
      purchaseDate: purchases.purchaseDate,
      book: bookColumns,
    })
    .from(purchases)
    .innerJoin(books, eq(books.id, purchases.bookId))
    .where(
      and(
        eq(purchases.userId, userId),
        inArray(purchases.format, [...DIGITAL_FORMATS]),
        eq(purchases.status, 'completed'),
        owned,
      ),
    )
    .orderBy(desc(purchases.purchaseDate), asc(purchases.id));
  const [releases, links, requests, files, updated] = await Promise.all([
    pendingReleases(db, rows.map((r) => r.bookId), now),
    openLinks(db, userId, rows.map((r) => r.id), now),
    pendingRequests(db, userId),
    uploadedFormats(db, rows.map((r) => r.bookId)),
    updatedFormats(db, userId),
  ]);
  const hasFile = (r: { bookId: number; format: string }) => files.get(r.bookId)?.has(r.format) ?? false;
  // The PDF edition comes with every e-book, but it is shown only once the author has uploaded it (0066).
  const items = rows.filter((r) => r.format !== 'pdf' || hasFile(r)).map((r) => ({
    ...r,
    format: r.format as LibraryItem['format'],
    lastDownloaded: r.lastDownloaded?.toISOString() ?? null,
    purchaseDate: r.purchaseDate.toISOString(),
    availableAt: releases.get(r.bookId)?.toISOString() ?? null,
    // Out, but released before its file was uploaded: the row says so rather than offer a dead download.
    fileReady: releases.has(r.bookId) || hasFile(r),
    resumeUntil: links.has(r.id) ? new Date(links.get(r.id)!.expiresAt).toISOString() : null,
    downloadRequest: requests.has(r.id) ? ('pending' as const) : null,
    updated: updated.has(`${r.bookId}:${r.format}`),
  }));
  return annotateIncluded(db, items);
}

/**
 * Every order the reader paid for ("Your Orders"): each format they bought, print or digital, and each
 * gift, with its status, refund and discount. Rows that came with another order (an included e-book, a
 * claimed gift) are not orders of theirs.
 */
export async function listOrders(db: DbOrTx, userId: number, now = new Date()): Promise<Order[]> {
  const rows = await db
    .select({
      id: purchases.id,
      orderReference: purchases.orderReference,
      format: purchases.format,
      price: purchases.price,
      status: purchases.status,
      purchaseDate: purchases.purchaseDate,
      shippedAt: purchases.shippedAt,
      carrier: purchases.shippingCarrier,
      trackingNumber: purchases.trackingNumber,
      trackingUrl: purchases.trackingUrl,
      refundedAt: purchases.refundedAt,
      book: bookColumns,
      originalAmount: sql<number | null>`coalesce(${orderLines.unitPrice} * ${orderLines.quantity}, ${checkoutSessions.originalAmount})`.mapWith(Number),
      discountCode: discountCodes.code,
      quantity: purchases.quantity,
      lineTax: orderLines.tax,
      lineAmount: orderLines.amount,
      linePosition: orderLines.position,
      orderShipping: orders.shipping,
      firstPrintPosition: sql<number | null>`(select min(ol.position) from ${orderLines} ol where ol.order_id = ${orderLines.orderId} and ol.format in ('hardcover', 'paperback'))`.mapWith(Number),
    })
    .from(purchases)
    .innerJoin(books, eq(books.id, purchases.bookId))
    // A line of a basket order has its own list price; a direct purchase has its checkout's.
    .leftJoin(orderLines, eq(orderLines.purchaseId, purchases.id))
    .leftJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(checkoutSessions, eq(checkoutSessions.purchaseId, purchases.id))
    .leftJoin(discountCodes, eq(discountCodes.id, checkoutSessions.discountCodeId))
    .where(and(eq(purchases.userId, userId), inArray(purchases.kind, ['paid', 'gift'])))
    .orderBy(desc(purchases.purchaseDate), desc(purchases.id));
  const [gifts, releases] = await Promise.all([
    giftSummaries(db, rows.map((r) => r.id)),
    pendingReleases(db, rows.map((r) => r.book.id), now),
  ]);
  return rows.map(({ originalAmount, lineTax, lineAmount, linePosition, orderShipping, firstPrintPosition, ...r }) => ({
    ...(gifts.has(r.id) ? { gift: gifts.get(r.id) } : {}),
    ...r,
    availableAt: releases.get(r.book.id)?.toISOString() ?? null,
    displayListPrice: originalAmount != null && originalAmount > r.price ? formatPrice(originalAmount) : null,
    refundedAt: r.refundedAt?.toISOString() ?? null,
    format: r.format as Order['format'],
    status: r.status as Order['status'],
    displayPrice: formatPrice(r.price),
    purchaseDate: r.purchaseDate.toISOString(),
    shippedAt: r.shippedAt?.toISOString() ?? null,
    tax: lineTax ? lineTax : null,
    displayTax: lineTax ? formatPrice(lineTax) : null,
    displayNet: lineTax && lineAmount !== null ? formatPrice(lineAmount - lineTax) : null,
    displayShipping: orderShipping && linePosition !== null && linePosition === firstPrintPosition ? formatPrice(orderShipping) : null,
  }));
}

/**
 * Spends one download of the user's purchase of this book and format, in ONE conditional statement: the
 * row is only updated while download_count < max_downloads, and SKIP LOCKED makes concurrent requests
 * (on any instance) pass over a row another request is spending instead of queueing for it. Returns the
 * purchase spent, or null when no allowance is left.
 */
async function consumeDownload(
  db: DbOrTx,
  input: { userId: number; bookId: number; format: string; now: Date },
): Promise<{ purchaseId: number; downloadCount: number } | null> {
  const result = await db.execute<{ id: number; download_count: number }>(sql`
    update ${purchases}
       set download_count = download_count + 1,
           download_used = true,
           last_downloaded = ${input.now.toISOString()}::timestamptz
     where id = (
             select id from ${purchases}
              where user_id = ${input.userId} and book_id = ${input.bookId} and format = ${input.format}
                and status = 'completed' and kind in ('paid', 'included', 'gift_claim', 'free', 'review_copy')
                and download_count < max_downloads
              order by id
              limit 1
              for update skip locked)
       and download_count < max_downloads
    returning id, download_count`);
  const rows = (result as unknown as { rows: Array<{ id: number; download_count: number }> }).rows;
  const row = rows[0];
  return row ? { purchaseId: Number(row.id), downloadCount: Number(row.download_count) } : null;
}

/**
 * Spends one download and records the link issued for it, together: the record is what the dashboard
 * counts and what the link's one transfer is checked against.
 */
export function spendDownload(
  db: Db,
  input: { userId: number; bookId: number; format: string; assetId: number; linkId: string; now: Date },
): Promise<{ purchaseId: number; downloadCount: number } | null> {
  const { userId, bookId, format, assetId, linkId, now } = input;
  return db.transaction(async (tx) => {
    const used = await consumeDownload(tx, { userId, bookId, format, now });
    if (used) await recordIssuedLink(tx, { linkId, purchaseId: used.purchaseId, userId, format, assetId, now });
    // The new edition is downloaded: the library stops marking it "Updated" (decision 0091).
    if (used) await markEditionDownloaded(tx, userId, bookId, format, now);
    return used;
  });
}

/** The caller's paid purchase of this book in this format, if any: what entitles them to its file. */
export async function findOwnedPurchase(db: DbOrTx, userId: number, bookId: number, format: string) {
  const [row] = await db
    .select({ id: purchases.id, userId: purchases.userId, bookId: purchases.bookId, format: purchases.format })
    .from(purchases)
    .where(ownedFormat(userId, bookId, format))
    .orderBy(asc(purchases.id))
    .limit(1);
  return row ?? null;
}

/** Marks library items that came with another, for "Included with your hardcover" / "with your e-book". */
export async function annotateIncluded(db: DbOrTx, items: LibraryItem[]): Promise<LibraryItem[]> {
  if (items.length === 0) return items;
  const payer = alias(purchases, 'payer');
  const rows = await db
    .select({ id: purchases.id, format: payer.format })
    .from(purchases)
    .innerJoin(payer, eq(payer.id, purchases.paidByPurchaseId))
    .where(and(inArray(purchases.id, items.map((i) => i.id)), eq(purchases.kind, 'included')));
  type Including = NonNullable<LibraryItem['includedWith']>;
  const byId = new Map(rows.map((r) => [r.id, r.format as Including]));
  // The PDF edition always comes with the e-book, even when a print copy paid for that e-book (0066).
  const including = (item: LibraryItem): Including | null =>
    byId.has(item.id) ? (item.format === 'pdf' ? 'ebook' : byId.get(item.id)!) : null;
  return items.map((item) => ({ ...item, includedWith: including(item) }));
}
