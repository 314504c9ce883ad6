/**
 * Verified reviews (decision 0085): who may review (a reader who owns any format of the book), one review per
 * reader per book, the "Enjoyed it?" question at the end of a book, and the author's approve / hide / answer.
 * What the public sees (approved reviews and their rating) is read here for the site's cached answer.
 */
import { and, avg, count, desc, eq } from 'drizzle-orm';
import {
  REVIEW_MESSAGES,
  type AdminReview,
  type MyReview,
  type MyReviewAnswer,
  type ReviewRequest,
  type ReviewStatus,
  type VerifiedReview,
} from '@shared/schemas/reviews';
import type { DbOrTx } from '../../db/client';
import { books, readerReviews, reviewPromptDismissals, users } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { type ActorId, audit } from '../../platform/operations/audit';
import { conflict, forbidden, notFound } from '../../platform/http/errors';
import { ownsAnyFormat } from '../library/service';

/** How many approved reviews the home page shows (newest first); the rating counts all of them. */
export const HOME_VERIFIED_REVIEWS = 6;

/** Whether the reader owns any format of the book (a completed row of an owned kind). */
export const ownsBook = (db: DbOrTx, userId: number, bookId: number) => ownsAnyFormat(db, userId, bookId);

async function bookTitle(db: DbOrTx, bookId: number): Promise<string> {
  const [book] = await db.select({ title: books.title }).from(books).where(eq(books.id, bookId)).limit(1);
  if (!book) throw notFound('Book not found');
  return book.title;
}

const asMyReview = (row: typeof readerReviews.$inferSelect): MyReview => ({
  id: row.id,
  bookId: row.bookId,
  rating: row.rating,
  text: row.text,
  status: row.status as ReviewStatus,
  answer: row.answer,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function findOwnReview(db: DbOrTx, userId: number, bookId: number) {
  const [row] = await db
    .select()
    .from(readerReviews)
    .where(and(eq(readerReviews.userId, userId), eq(readerReviews.bookId, bookId)))
    .limit(1);
  return row ?? null;
}

/** The reader's standing with the book: may they review it, their review, and whether to ask at the end. */
export async function myReview(db: DbOrTx, userId: number, bookId: number): Promise<MyReviewAnswer> {
  const title = await bookTitle(db, bookId);
  const [canReview, review, [dismissed]] = await Promise.all([
    ownsBook(db, userId, bookId),
    findOwnReview(db, userId, bookId),
    db
      .select({ at: reviewPromptDismissals.dismissedAt })
      .from(reviewPromptDismissals)
      .where(and(eq(reviewPromptDismissals.userId, userId), eq(reviewPromptDismissals.bookId, bookId)))
      .limit(1),
  ]);
  return {
    bookId,
    bookTitle: title,
    canReview,
    askAtEnd: canReview && !review && !dismissed,
    review: review ? asMyReview(review) : null,
  };
}

async function requireOwner(db: DbOrTx, userId: number, bookId: number) {
  await bookTitle(db, bookId);
  if (!(await ownsBook(db, userId, bookId))) throw forbidden(REVIEW_MESSAGES.notOwned);
}

/** The reader's first review of the book; a second is refused (the unique key decides, not a prior read). */
export async function createReview(deps: AppDeps, userId: number, bookId: number, input: ReviewRequest): Promise<MyReview> {
  const { db } = deps.database;
  await requireOwner(db, userId, bookId);
  const now = deps.clock.now();
  const [row] = await db
    .insert(readerReviews)
    .values({ bookId, userId, rating: input.rating, text: input.text, status: 'pending', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(REVIEW_MESSAGES.alreadyReviewed);
  return asMyReview(row);
}

/**
 * An edit of the reader's review. It goes back to 'pending' (and the author's answer, written to the old
 * text, is kept but waits with it), so the home page never shows text the author has not read.
 */
export async function updateReview(deps: AppDeps, userId: number, bookId: number, input: ReviewRequest): Promise<MyReview> {
  const { db } = deps.database;
  await requireOwner(db, userId, bookId);
  const [before] = await db
    .select({ status: readerReviews.status })
    .from(readerReviews)
    .where(and(eq(readerReviews.userId, userId), eq(readerReviews.bookId, bookId)));
  const [row] = await db
    .update(readerReviews)
    .set({ rating: input.rating, text: input.text, status: 'pending', updatedAt: deps.clock.now() })
    .where(and(eq(readerReviews.userId, userId), eq(readerReviews.bookId, bookId)))
    .returning();
  if (!row) throw notFound(REVIEW_MESSAGES.noReview);
  // An approved review leaves the home page until approved again: the public answer must drop it now.
  if (before?.status === 'approved') deps.cache.clear();
  return asMyReview(row);
}

/** "Not now" at the end of the book: the question is not asked again, in the reader or the player. */
export async function dismissPrompt(db: DbOrTx, userId: number, bookId: number): Promise<void> {
  await requireOwner(db, userId, bookId);
  await db.insert(reviewPromptDismissals).values({ userId, bookId }).onConflictDoNothing();
}

const readerName = (row: { displayName: string | null; username: string }) => row.displayName?.trim() || row.username;

/** Every review for the author, newest first, optionally of one state. */
export async function listReviewsForAdmin(db: DbOrTx, status?: ReviewStatus): Promise<AdminReview[]> {
  const rows = await db
    .select({
      review: readerReviews,
      bookTitle: books.title,
      displayName: users.displayName,
      username: users.username,
    })
    .from(readerReviews)
    .innerJoin(books, eq(books.id, readerReviews.bookId))
    .innerJoin(users, eq(users.id, readerReviews.userId))
    .where(status ? eq(readerReviews.status, status) : undefined)
    .orderBy(desc(readerReviews.id))
    .limit(500);
  return rows.map((r) => ({
    ...asMyReview(r.review),
    bookTitle: r.bookTitle,
    reader: readerName(r),
  }));
}

async function adminReview(db: DbOrTx, id: number): Promise<AdminReview> {
  const [row] = await db
    .select({ review: readerReviews, bookTitle: books.title, displayName: users.displayName, username: users.username })
    .from(readerReviews)
    .innerJoin(books, eq(books.id, readerReviews.bookId))
    .innerJoin(users, eq(users.id, readerReviews.userId))
    .where(eq(readerReviews.id, id));
  if (!row) throw notFound(REVIEW_MESSAGES.reviewNotFound);
  return { ...asMyReview(row.review), bookTitle: row.bookTitle, reader: readerName(row) };
}

/** Approve (shown on the home page) or hide a review; recorded in the audit log with the change. */
export async function setReviewStatus(deps: AppDeps, id: number, status: Exclude<ReviewStatus, 'pending'>, actor: ActorId) {
  const now = deps.clock.now();
  await deps.database.db.transaction(async (tx) => {
    const [row] = await tx.update(readerReviews).set({ status }).where(eq(readerReviews.id, id)).returning({ id: readerReviews.id });
    if (!row) throw notFound(REVIEW_MESSAGES.reviewNotFound);
    await audit(tx, actor, { action: status === 'approved' ? 'review.approve' : 'review.hide', targetType: 'review', targetId: id }, now);
  });
  return adminReview(deps.database.db, id);
}

/** The author's public answer to a review; an empty answer removes it. */
export async function answerReview(deps: AppDeps, id: number, answer: string, actor: ActorId) {
  const now = deps.clock.now();
  await deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(readerReviews)
      .set({ answer: answer || null, answeredAt: answer ? now : null })
      .where(eq(readerReviews.id, id))
      .returning({ id: readerReviews.id });
    if (!row) throw notFound(REVIEW_MESSAGES.reviewNotFound);
    await audit(tx, actor, { action: answer ? 'review.answer' : 'review.answer_remove', targetType: 'review', targetId: id }, now);
  });
  return adminReview(deps.database.db, id);
}

/** The approved reviews the home page shows, and the rating over every approved one (null when none). */
export async function verifiedReviewsOf(
  db: DbOrTx,
  bookId: number,
): Promise<{ reviews: VerifiedReview[]; rating: { value: number; count: number } | null }> {
  const approved = and(eq(readerReviews.bookId, bookId), eq(readerReviews.status, 'approved'));
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: readerReviews.id,
        rating: readerReviews.rating,
        text: readerReviews.text,
        answer: readerReviews.answer,
        displayName: users.displayName,
        username: users.username,
      })
      .from(readerReviews)
      .innerJoin(users, eq(users.id, readerReviews.userId))
      .where(approved)
      .orderBy(desc(readerReviews.id))
      .limit(HOME_VERIFIED_REVIEWS),
    db.select({ count: count(), average: avg(readerReviews.rating) }).from(readerReviews).where(approved),
  ]);
  const total = Number(totals?.count ?? 0);
  return {
    reviews: rows.map((r) => ({ id: r.id, rating: r.rating, text: r.text, answer: r.answer, author: readerName(r) })),
    // One decimal, as a rating is shown (4.5, not 4.4999...).
    rating: total > 0 ? { value: Math.round(Number(totals!.average) * 10) / 10, count: total } : null,
  };
}
