/**
 * The e-book includes the PDF edition (issue 25, decision 0066): whoever comes to own the e-book (bought,
 * included with print, or a claimed gift) also gets the book's PDF as its own library row with its own one
 * download and its own "Licensed to" copy. The row is price 0, kind 'included', and points at the row that
 * paid for the e-book, so a refund of that order takes the PDF along with everything else it paid for.
 */
import { DEFAULT_MAX_DOWNLOADS } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { purchases } from '../../db/schema';
import { ownsFormat } from './ownership';
import { findAsset } from './assets';

/** A just-created library row the reader owns. */
export interface OwnedRow {
  id: number;
  userId: number;
  bookId: number;
  format: string;
  currency: string;
  orderReference: string;
  /** The row that paid for this one (a print copy, a gift); null when it was paid for itself. */
  paidByPurchaseId: number | null;
}

/** Adds what comes with a format to its owner's library, in the caller's transaction. Returns the new row id. */
export async function addIncludedEditions(tx: DbOrTx, row: OwnedRow, now: Date): Promise<number | null> {
  if (row.format !== 'ebook') return null;
  // One PDF per reader and book: a second would silently give a second download (as for the ebook, 0051).
  if (await ownsFormat(tx, row.userId, row.bookId, 'pdf')) return null;
  const [pdf] = await tx
    .insert(purchases)
    .values({
      userId: row.userId,
      bookId: row.bookId,
      format: 'pdf',
      price: 0,
      currency: row.currency,
      purchaseDate: now,
      status: 'completed',
      orderReference: `${row.orderReference}-PDF`,
      maxDownloads: DEFAULT_MAX_DOWNLOADS,
      kind: 'included',
      paidByPurchaseId: row.paidByPurchaseId ?? row.id,
    })
    .returning({ id: purchases.id });
  return pdf.id;
}

/** Whether the book's e-book comes with a PDF a buyer can have today: the author has uploaded one. */
export async function hasPdfEdition(db: DbOrTx, bookId: number): Promise<boolean> {
  return (await findAsset(db, { bookId, format: 'pdf' })) !== null;
}
