/**
 * The reader's side of review copies (decision 0099): the campaign page, applying, and the "Post your
 * review" links of an approved copy (only its own reader may post them).
 */
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { formatLabel } from '@shared/constants';
import type { ApplicationAnswer, ApplicationRequest, MyReviewCopy, PublicCampaign } from '@shared/schemas/review-copies';
import { REVIEW_COPY_MESSAGES, REVIEW_LINKS_MAX, applicationRequestSchema } from '@shared/schemas/review-copies';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { books, reviewApplications, reviewCampaigns, reviewLinks } from '../../db/schema';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { AppError, notFound } from '../../platform/http/errors';
import { approveInTx } from './approval';
import { approvedCount, campaignState } from './campaigns';

type Deps = Parameters<typeof approveInTx>[0];

async function campaignBySlug(db: DbOrTx, slug: string) {
  const [row] = await db
    .select({ campaign: reviewCampaigns, book: { id: books.id, title: books.title, tagline: books.tagline, coverImage: books.coverImage } })
    .from(reviewCampaigns)
    .innerJoin(books, eq(books.id, reviewCampaigns.bookId))
    .where(eq(reviewCampaigns.slug, slug.toLowerCase()))
    .limit(1);
  if (!row) throw notFound(REVIEW_COPY_MESSAGES.campaignNotFound);
  return row;
}

export async function publicCampaign(db: DbOrTx, slug: string, now: Date): Promise<PublicCampaign> {
  const { campaign, book } = await campaignBySlug(db, slug);
  return {
    slug: campaign.slug,
    book,
    formatLabel: formatLabel(campaign.format),
    question: campaign.question,
    opensAt: campaign.opensAt.toISOString(),
    closesAt: campaign.closesAt.toISOString(),
    state: campaignState(campaign, await approvedCount(db, campaign.id), now),
  };
}

const STATE_REFUSALS = {
  upcoming: ['CAMPAIGN_NOT_OPEN', REVIEW_COPY_MESSAGES.notOpenYet],
  closed: ['CAMPAIGN_CLOSED', REVIEW_COPY_MESSAGES.closed],
  full: ['CAMPAIGN_FULL', REVIEW_COPY_MESSAGES.full],
} as const;

/**
 * Takes an application while the campaign is open and has copies left; one per address. A campaign that
 * approves automatically approves it in the same transaction (the copy and the mail with it).
 */
export async function apply(deps: Deps, slug: string, body: ApplicationRequest): Promise<ApplicationAnswer> {
  const input = applicationRequestSchema.parse(body);
  const { db } = deps.database;
  const now = deps.clock.now();
  const { campaign } = await campaignBySlug(db, slug);
  const state = campaignState(campaign, await approvedCount(db, campaign.id), now);
  if (state !== 'open') {
    const [code, message] = STATE_REFUSALS[state];
    throw new AppError(code, 409, message);
  }
  try {
    const status = await db.transaction(async (tx) => {
      const [application] = await tx
        .insert(reviewApplications)
        .values({ campaignId: campaign.id, name: input.name, email: input.email, reviewsWhere: input.reviewsWhere, answer: input.answer, profileLinks: input.profileLinks, createdAt: now })
        .returning({ id: reviewApplications.id });
      if (!campaign.autoApprove) return 'pending' as const;
      const outcome = await approveInTx(deps, tx, campaign.id, application.id, now);
      if (outcome === 'full') throw new AppError('CAMPAIGN_FULL', 409, REVIEW_COPY_MESSAGES.full);
      return 'approved' as const;
    });
    return { status, message: status === 'approved' ? REVIEW_COPY_MESSAGES.approvedAtOnce : REVIEW_COPY_MESSAGES.applied };
  } catch (error) {
    if (uniqueViolation(error)) throw new AppError('ALREADY_APPLIED', 409, REVIEW_COPY_MESSAGES.alreadyApplied, { email: REVIEW_COPY_MESSAGES.alreadyApplied });
    throw error;
  }
}

/** The signed-in reader's review copies (approved ones, and those withdrawn later), with their posted links. */
export async function myReviewCopies(db: DbOrTx, userId: number): Promise<MyReviewCopy[]> {
  const rows = await db
    .select({ application: reviewApplications, slug: reviewCampaigns.slug, format: reviewCampaigns.format, bookId: books.id, bookTitle: books.title })
    .from(reviewApplications)
    .innerJoin(reviewCampaigns, eq(reviewCampaigns.id, reviewApplications.campaignId))
    .innerJoin(books, eq(books.id, reviewCampaigns.bookId))
    .where(eq(reviewApplications.userId, userId))
    .orderBy(asc(reviewApplications.id));
  const links = rows.length
    ? await db
        .select({ applicationId: reviewLinks.applicationId, url: reviewLinks.url, createdAt: reviewLinks.createdAt })
        .from(reviewLinks)
        .innerJoin(reviewApplications, eq(reviewApplications.id, reviewLinks.applicationId))
        .where(eq(reviewApplications.userId, userId))
        .orderBy(asc(reviewLinks.id))
    : [];
  return rows.map((r) => ({
    id: r.application.id,
    slug: r.slug,
    bookId: r.bookId,
    bookTitle: r.bookTitle,
    format: r.format as MyReviewCopy['format'],
    formatLabel: formatLabel(r.format),
    status: r.application.status as MyReviewCopy['status'],
    reviewLinks: links.filter((l) => l.applicationId === r.application.id).map((l) => ({ url: l.url, postedAt: l.createdAt.toISOString() })),
  }));
}

/**
 * Posts a review link for the reader's own approved copy. Another reader's application is "not found",
 * so ids reveal nothing; the first link stops the reminders.
 */
export async function postReviewLink(deps: Pick<AppDeps, 'database' | 'clock'>, userId: number, applicationId: number, url: string): Promise<MyReviewCopy[]> {
  const { db } = deps.database;
  const now = deps.clock.now();
  try {
    await db.transaction(async (tx) => {
      const [application] = await tx
        .select({ id: reviewApplications.id, status: reviewApplications.status })
        .from(reviewApplications)
        .where(and(eq(reviewApplications.id, applicationId), eq(reviewApplications.userId, userId)))
        .for('update');
      if (!application) throw notFound(REVIEW_COPY_MESSAGES.applicationNotFound);
      if (application.status !== 'approved') throw new AppError('NOT_APPROVED', 409, REVIEW_COPY_MESSAGES.notApproved);
      const [{ n }] = await tx.select({ n: count() }).from(reviewLinks).where(eq(reviewLinks.applicationId, applicationId));
      if (n >= REVIEW_LINKS_MAX) throw new AppError('TOO_MANY_LINKS', 409, REVIEW_COPY_MESSAGES.tooManyLinks, { url: REVIEW_COPY_MESSAGES.tooManyLinks });
      await tx.insert(reviewLinks).values({ applicationId, url, createdAt: now });
      await tx
        .update(reviewApplications)
        .set({ reviewPostedAt: now })
        .where(and(eq(reviewApplications.id, applicationId), isNull(reviewApplications.reviewPostedAt)));
    });
  } catch (error) {
    if (uniqueViolation(error)) throw new AppError('LINK_TWICE', 409, REVIEW_COPY_MESSAGES.linkTwice, { url: REVIEW_COPY_MESSAGES.linkTwice });
    throw error;
  }
  return myReviewCopies(db, userId);
}
