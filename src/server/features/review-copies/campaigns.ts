/**
 * The author's side of review copies (decision 0099): campaigns and the applications to each, with the
 * applicants who kept a past campaign's copy without posting a review flagged.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { formatLabel } from '@shared/constants';
import type { AdminApplication, AdminCampaign, CampaignInput, CampaignState } from '@shared/schemas/review-copies';
import { REVIEW_COPY_MESSAGES } from '@shared/schemas/review-copies';
import type { DbOrTx } from '../../db/client';
import { books, reviewApplications, reviewCampaigns, reviewLinks } from '../../db/schema';
import { type ActorId, audit } from '../../platform/operations/audit';
import { qualified } from '../../db/qualified';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { conflict, notFound } from '../../platform/http/errors';

export type CampaignRow = typeof reviewCampaigns.$inferSelect;

/** Where a campaign stands now: before its dates, after them, out of copies, or taking applications. */
export function campaignState(campaign: Pick<CampaignRow, 'opensAt' | 'closesAt' | 'copies'>, approved: number, now: Date): CampaignState {
  if (now < campaign.opensAt) return 'upcoming';
  if (now >= campaign.closesAt) return 'closed';
  return approved >= campaign.copies ? 'full' : 'open';
}

/** How many copies a campaign has given out (approved, reviewed or not; withdrawn copies are not counted). */
export async function approvedCount(db: DbOrTx, campaignId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(reviewApplications)
    .where(and(eq(reviewApplications.campaignId, campaignId), eq(reviewApplications.status, 'approved')));
  return row.n;
}

export async function findCampaign(db: DbOrTx, id: number): Promise<CampaignRow> {
  const [row] = await db.select().from(reviewCampaigns).where(eq(reviewCampaigns.id, id)).limit(1);
  if (!row) throw notFound(REVIEW_COPY_MESSAGES.campaignNotFound);
  return row;
}

const counted = (status: string) =>
  sql<number>`count(*) filter (where ${reviewApplications.status} = ${status})`.mapWith(Number);

export async function listCampaigns(db: DbOrTx, now: Date): Promise<AdminCampaign[]> {
  const rows = await db
    .select({
      campaign: reviewCampaigns,
      bookTitle: books.title,
      applications: sql<number>`count(${reviewApplications.id})`.mapWith(Number),
      pending: counted('pending'),
      approved: counted('approved'),
      withdrawn: counted('withdrawn'),
      reviewed: sql<number>`count(*) filter (where ${reviewApplications.reviewPostedAt} is not null)`.mapWith(Number),
    })
    .from(reviewCampaigns)
    .innerJoin(books, eq(books.id, reviewCampaigns.bookId))
    .leftJoin(reviewApplications, eq(reviewApplications.campaignId, reviewCampaigns.id))
    .groupBy(reviewCampaigns.id, books.title)
    .orderBy(desc(reviewCampaigns.opensAt), desc(reviewCampaigns.id));
  return rows.map(({ campaign: c, ...counts }) => ({
    id: c.id,
    bookId: c.bookId,
    format: c.format as AdminCampaign['format'],
    formatLabel: formatLabel(c.format),
    slug: c.slug,
    opensAt: c.opensAt.toISOString(),
    closesAt: c.closesAt.toISOString(),
    copies: c.copies,
    question: c.question,
    autoApprove: c.autoApprove,
    reminderDays: c.reminderDays,
    state: campaignState(c, counts.approved, now),
    withdrawnAt: c.withdrawnAt?.toISOString() ?? null,
    ...counts,
  }));
}

/** Creates or edits a campaign; a slug another campaign holds is a 409 on the slug field. */
export async function saveCampaign(db: DbOrTx, actor: ActorId, input: CampaignInput, now: Date, id?: number): Promise<number> {
  const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, input.bookId)).limit(1);
  if (!book) throw notFound(REVIEW_COPY_MESSAGES.bookNotFound);
  const values = { ...input, opensAt: new Date(input.opensAt), closesAt: new Date(input.closesAt) };
  try {
    return await db.transaction(async (tx) => {
      let savedId: number;
      if (id === undefined) {
        [{ id: savedId }] = await tx.insert(reviewCampaigns).values(values).returning({ id: reviewCampaigns.id });
      } else {
        const updated = await tx.update(reviewCampaigns).set(values).where(eq(reviewCampaigns.id, id)).returning({ id: reviewCampaigns.id });
        if (updated.length === 0) throw notFound(REVIEW_COPY_MESSAGES.campaignNotFound);
        savedId = id;
      }
      await audit(tx, actor, { action: id === undefined ? 'review-campaign.create' : 'review-campaign.update', targetType: 'review-campaign', targetId: savedId, details: { slug: input.slug } }, now);
      return savedId;
    });
  } catch (error) {
    if (uniqueViolation(error)) throw conflict(REVIEW_COPY_MESSAGES.slugTaken, { slug: REVIEW_COPY_MESSAGES.slugTaken });
    throw error;
  }
}

/**
 * A campaign's applications, oldest first. `keptWithoutReview` names the books of other campaigns, already
 * closed, whose copy this address (or this reader's account) was given and still holds without a review link.
 */
export async function listApplications(db: DbOrTx, campaignId: number, now: Date): Promise<AdminApplication[]> {
  await findCampaign(db, campaignId);
  const rows = await db
    .select({
      application: reviewApplications,
      reviewLinks: sql<string[]>`coalesce((select json_agg(${reviewLinks.url} order by ${reviewLinks.id}) from ${reviewLinks} where ${reviewLinks.applicationId} = ${qualified(reviewApplications.id)}), '[]'::json)`,
      keptWithoutReview: sql<string[]>`coalesce((
        select json_agg(distinct b.title) from review_applications past
          join review_campaigns pc on pc.id = past.campaign_id
          join books b on b.id = pc.book_id
         where past.campaign_id <> ${qualified(reviewApplications.campaignId)}
           and (lower(past.email) = lower(${qualified(reviewApplications.email)}) or past.user_id = ${qualified(reviewApplications.userId)})
           and past.status = 'approved' and past.review_posted_at is null
           and pc.closes_at <= ${now.toISOString()}::timestamptz), '[]'::json)`,
    })
    .from(reviewApplications)
    .where(eq(reviewApplications.campaignId, campaignId))
    .orderBy(asc(reviewApplications.createdAt), asc(reviewApplications.id));
  return rows.map(({ application: a, reviewLinks: links, keptWithoutReview }) => ({
    id: a.id,
    name: a.name,
    email: a.email,
    reviewsWhere: a.reviewsWhere,
    answer: a.answer,
    profileLinks: a.profileLinks,
    status: a.status as AdminApplication['status'],
    appliedAt: a.createdAt.toISOString(),
    decidedAt: a.decidedAt?.toISOString() ?? null,
    reviewLinks: links,
    remindersSent: a.remindersSent,
    keptWithoutReview,
  }));
}
