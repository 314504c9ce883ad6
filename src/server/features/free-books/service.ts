/**
 * A free book for subscribers (decision 0097). A visitor gives an address on /free/{slug}; the address gets a
 * confirmation link (the Thriller Circle's confirmation when the newsletter asks for one, else the free
 * book's own). Opening the link only shows a page; its button posts the token, which, once and within 24
 * hours: subscribes the address as confirmed, makes a passwordless account when it has none, puts the format
 * in that reader's library and signs them in. An address that left the list, complained or bounced is
 * refused before anything is stored or sent.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { CURRENCY, DEFAULT_MAX_DOWNLOADS, type DigitalFormat, formatLabel } from '@shared/constants';
import { FREE_BOOK_CONFIRM_VALIDITY_MS, FREE_BOOK_MESSAGES, type FreeBookPage } from '@shared/schemas/free-books';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { books, freeBookClaims, freeBooks, purchases } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { getSetting } from '../../platform/operations/settings';
import { createPasswordlessAccount, findAccountByEmail } from '../auth/service';
import { addIncludedEditions, findOwnedPurchase } from '../library/service';
import { SUPPRESSED_STATES, asksToConfirm, subscribeConfirmed, subscriberState } from '../newsletter/service';
import { freeBookMail } from './templates';

type Deps = Pick<AppDeps, 'database' | 'clock' | 'random' | 'mailer' | 'config'>;

/** Bound to this purpose, so no other token of the site can match a claim's hash. */
export const hashClaimToken = (token: string) => sha256(`free-book-claim:${token}`);

const bookColumns = { id: books.id, title: books.title, tagline: books.tagline, coverImage: books.coverImage };

async function findOffered(db: DbOrTx, slug: string) {
  const [row] = await db
    .select({ id: freeBooks.id, slug: freeBooks.slug, pitch: freeBooks.pitch, format: freeBooks.format, book: bookColumns })
    .from(freeBooks)
    .innerJoin(books, eq(books.id, freeBooks.bookId))
    .where(and(eq(freeBooks.slug, slug.toLowerCase()), eq(freeBooks.active, true)))
    .limit(1);
  if (!row) throw notFound(FREE_BOOK_MESSAGES.notOffered);
  return { ...row, format: row.format as DigitalFormat };
}

/** What /free/{slug} shows; 404 when nothing is offered there (unknown, switched off or removed). */
export async function freeBookPage(db: DbOrTx, slug: string): Promise<FreeBookPage> {
  const { id: _id, ...page } = await findOffered(db, slug);
  return { ...page, formatLabel: formatLabel(page.format) };
}

const isSuppressed = (state: string | null) => state !== null && (SUPPRESSED_STATES as readonly string[]).includes(state);
const suppressed = () => new AppError('ADDRESS_SUPPRESSED', 409, FREE_BOOK_MESSAGES.suppressed, { email: FREE_BOOK_MESSAGES.suppressed });

/**
 * Records a request and mails its confirmation link, in one transaction. Every address that may claim gets
 * the same answer, known or not: whether it has an account is never looked at here.
 */
export async function requestFreeBook(deps: Deps, slug: string, input: { email: string; source?: string }): Promise<void> {
  const { db } = deps.database;
  const offer = await findOffered(db, slug);
  const state = await subscriberState(db, input.email);
  if (isSuppressed(state)) throw suppressed();
  const token = deps.random.token(32);
  const now = deps.clock.now();
  const content = await getSetting(db, 'site.content');
  await db.transaction(async (tx) => {
    const asNewsletterConfirmation = state !== 'confirmed' && (await asksToConfirm(tx));
    await tx.insert(freeBookClaims).values({
      freeBookId: offer.id,
      email: input.email,
      source: input.source?.toLowerCase() ?? null,
      tokenHash: hashClaimToken(token),
      expiresAt: new Date(now.getTime() + FREE_BOOK_CONFIRM_VALIDITY_MS),
      createdAt: now,
    });
    const link = `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/free/${offer.slug}/confirm?${new URLSearchParams({ token }).toString()}`;
    await deps.mailer.enqueue(
      freeBookMail({
        to: input.email,
        link,
        title: offer.book.title,
        formatLabel: formatLabel(offer.format),
        siteTitle: content?.siteTitle ?? 'What We Owe the Dead',
        asNewsletterConfirmation,
      }),
      tx,
    );
  });
}

export interface ConfirmedClaim {
  user: { id: number; role: 'user' | 'admin' };
  book: FreeBookPage['book'];
  format: DigitalFormat;
}

/** The library row that makes the reader own the format: theirs already, or a new 'free' row (once). */
async function putInLibrary(tx: DbOrTx, userId: number, bookId: number, format: DigitalFormat, claimId: number, now: Date): Promise<number> {
  const owned = await findOwnedPurchase(tx, userId, bookId, format);
  if (owned) return owned.id;
  const orderReference = `FREE-${claimId}`;
  const [row] = await tx
    .insert(purchases)
    .values({
      userId,
      bookId,
      format,
      price: 0,
      currency: CURRENCY,
      purchaseDate: now,
      status: 'completed',
      orderReference,
      maxDownloads: DEFAULT_MAX_DOWNLOADS,
      kind: 'free',
    })
    // Another confirmation of the same reader won the unique (reader, book, format) of free rows.
    .onConflictDoNothing()
    .returning({ id: purchases.id });
  if (!row) return (await findOwnedPurchase(tx, userId, bookId, format))!.id;
  // The e-book comes with its PDF edition (decision 0066), as for any other way of owning it.
  await addIncludedEditions(tx, { id: row.id, userId, bookId, format, currency: CURRENCY, orderReference, paidByPurchaseId: null }, now);
  return row.id;
}

/**
 * Uses a confirmation link (the button's POST; opening the link changes nothing). Refusals change nothing:
 * an unknown token is 404, a used one 409, an expired one 400, a gift no longer offered 404, and an address
 * that has left the list since it asked 409.
 */
export async function confirmFreeBook(deps: Deps, token: string): Promise<ConfirmedClaim> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const [claim] = await tx
      .select({
        id: freeBookClaims.id,
        email: freeBookClaims.email,
        expiresAt: freeBookClaims.expiresAt,
        confirmedAt: freeBookClaims.confirmedAt,
        active: freeBooks.active,
        format: freeBooks.format,
        book: bookColumns,
      })
      .from(freeBookClaims)
      .innerJoin(freeBooks, eq(freeBooks.id, freeBookClaims.freeBookId))
      .innerJoin(books, eq(books.id, freeBooks.bookId))
      .where(eq(freeBookClaims.tokenHash, hashClaimToken(token)))
      .limit(1);
    if (!claim) throw notFound(FREE_BOOK_MESSAGES.confirmUnknown);
    if (claim.confirmedAt) throw new AppError('CLAIM_USED', 409, FREE_BOOK_MESSAGES.confirmUsed);
    if (claim.expiresAt.getTime() <= now.getTime()) throw badRequest(FREE_BOOK_MESSAGES.confirmExpired);
    if (!claim.active) throw notFound(FREE_BOOK_MESSAGES.notOffered);
    if (isSuppressed(await subscriberState(tx, claim.email))) throw suppressed();
    // Spent by one conditional statement: of two presses at once, one goes on and the other is refused.
    const spent = await tx
      .update(freeBookClaims)
      .set({ confirmedAt: now })
      .where(and(eq(freeBookClaims.id, claim.id), isNull(freeBookClaims.confirmedAt), gt(freeBookClaims.expiresAt, now)))
      .returning({ id: freeBookClaims.id });
    if (spent.length === 0) throw new AppError('CLAIM_USED', 409, FREE_BOOK_MESSAGES.confirmUsed);
    const user = (await findAccountByEmail(tx, claim.email)) ?? (await createPasswordlessAccount(tx, claim.email));
    await subscribeConfirmed(tx, { email: claim.email, userId: user.id, source: 'free-book', now });
    const format = claim.format as DigitalFormat;
    const purchaseId = await putInLibrary(tx, user.id, claim.book.id, format, claim.id, now);
    await tx.update(freeBookClaims).set({ userId: user.id, purchaseId }).where(eq(freeBookClaims.id, claim.id));
    return { user, book: claim.book, format };
  });
}

/** Requests for a free book per address in an hour: enough for a lost mail, not a mailbox flood. */
export const CLAIMS_PER_ADDRESS = { max: 3, windowMs: 60 * 60_000 };
export const claimAddressKey = (email: string) => `freebook:addr:${email.toLowerCase()}`;

