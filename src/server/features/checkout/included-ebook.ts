import { eq } from 'drizzle-orm';
import { DEFAULT_MAX_DOWNLOADS, PHYSICAL_FORMATS } from '@shared/constants';
import type { DbOrTx } from '../../db/client';
import { books, purchases } from '../../db/schema';
import { addIncludedEditions, ownsFormat } from '../library/service';

const isPrint = (format: string) => (PHYSICAL_FORMATS as readonly string[]).includes(format);

/** Whether a print format of this book comes with its ebook (the purchase section's "Includes the ebook"). */
export function includesEbook(book: { includeEbookWithPrint?: boolean }, format: string): boolean | undefined {
  return isPrint(format) ? book.includeEbookWithPrint !== false : undefined;
}

/**
 * Inside the fulfilment transaction (returns the formats it added, for the receipt) of a paid print copy: the ebook of the same book joins the buyer's
 * library as a price-0 'included' row that points at the print row (so a refund takes it along), with the
 * normal one download, and the ebook brings its PDF edition (decision 0066). A buyer who already owns the
 * ebook gets no second copy (decision 0051).
 */
export async function addIncludedEbook(
  tx: DbOrTx,
  paid: { id: number; userId: number; bookId: number; format: string; currency: string; orderReference: string },
  now: Date,
): Promise<Array<'ebook' | 'pdf'>> {
  if (!isPrint(paid.format)) return [];
  const [book] = await tx
    .select({ include: books.includeEbookWithPrint })
    .from(books)
    .where(eq(books.id, paid.bookId));
  if (!book?.include) return [];
  if (await ownsFormat(tx, paid.userId, paid.bookId, 'ebook')) return [];
  const [row] = await tx
    .insert(purchases)
    .values({
      userId: paid.userId,
      bookId: paid.bookId,
      format: 'ebook',
      price: 0,
      currency: paid.currency,
      purchaseDate: now,
      status: 'completed',
      orderReference: `${paid.orderReference}-EBOOK`,
      maxDownloads: DEFAULT_MAX_DOWNLOADS,
      kind: 'included',
      paidByPurchaseId: paid.id,
    })
    .returning({ id: purchases.id });
  const ebook = { id: row.id, userId: paid.userId, bookId: paid.bookId, format: 'ebook', currency: paid.currency };
  const pdf = await addIncludedEditions(tx, { ...ebook, orderReference: `${paid.orderReference}-EBOOK`, paidByPurchaseId: paid.id }, now);
  return pdf === null ? ['ebook'] : ['ebook', 'pdf'];
}
