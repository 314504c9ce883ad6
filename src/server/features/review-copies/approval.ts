/**
 * What follows an application (decision 0099): approval gives the reader an account (without a password when
 * the address has none), a personal copy in their library and a mail that signs them in; reminders follow
 * every N days until a review link is posted; once the campaign is over, copies nobody opened are withdrawn.
 */
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { CURRENCY, DEFAULT_MAX_DOWNLOADS } from '@shared/constants';
import type { DecideAnswer, WithdrawAnswer } from '@shared/schemas/review-copies';
import { REVIEW_COPY_MESSAGES } from '@shared/schemas/review-copies';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { books, purchases, reviewApplications, reviewCampaigns } from '../../db/schema';
import { type ActorId, audit } from '../../platform/operations/audit';
import { AppError } from '../../platform/http/errors';
import { createPasswordlessAccount, findAccountByEmail, issueLoginLink } from '../auth/service';
import { approvedCount, findCampaign } from './campaigns';
import { approvalMail, reminderMail } from './templates';

export const REMINDER_JOB = 'review-copy-reminders';
export const REMINDER_EVERY_MS = 60 * 60_000;

type Deps = Pick<AppDeps, 'database' | 'clock' | 'random' | 'mailer' | 'config' | 'log'>;

const site = (deps: Pick<AppDeps, 'config'>) => deps.config.PUBLIC_URL.replace(/\/+$/, '');
export const reviewPageUrl = (deps: Pick<AppDeps, 'config'>, slug: string) => `${site(deps)}/review-copies/${slug}`;

/**
 * Approves one pending application inside `tx`. The campaign row is locked first, so concurrent approvals
 * (a bulk approve and an automatic one) cannot give out more copies than the campaign has. The lock is
 * NO KEY UPDATE: an automatic approval runs after inserting its application, whose foreign key holds a
 * KEY SHARE lock on this row, and FOR UPDATE would then wait on every other applicant's insert while they
 * wait on it (a deadlock on PostgreSQL); NO KEY UPDATE still lets one approval at a time through.
 */
export async function approveInTx(deps: Deps, tx: DbOrTx, campaignId: number, applicationId: number, now: Date): Promise<'approved' | 'full' | 'skipped'> {
  const [campaign] = await tx.select().from(reviewCampaigns).where(eq(reviewCampaigns.id, campaignId)).for('no key update');
  if (!campaign) return 'skipped';
  if ((await approvedCount(tx, campaignId)) >= campaign.copies) return 'full';
  const [application] = await tx
    .update(reviewApplications)
    .set({ status: 'approved', decidedAt: now })
    .where(and(eq(reviewApplications.id, applicationId), eq(reviewApplications.campaignId, campaignId), eq(reviewApplications.status, 'pending')))
    .returning();
  if (!application) return 'skipped';
  const account = (await findAccountByEmail(tx, application.email)) ?? (await createPasswordlessAccount(tx, application.email));
  const [copy] = await tx
    .insert(purchases)
    .values({
      userId: account.id,
      bookId: campaign.bookId,
      format: campaign.format,
      price: 0,
      currency: CURRENCY,
      purchaseDate: now,
      status: 'completed',
      orderReference: `RC-${campaign.id}-${application.id}`,
      maxDownloads: DEFAULT_MAX_DOWNLOADS,
      kind: 'review_copy',
    })
    .returning({ id: purchases.id });
  await tx.update(reviewApplications).set({ userId: account.id, purchaseId: copy.id }).where(eq(reviewApplications.id, application.id));
  const [book] = await tx.select({ title: books.title }).from(books).where(eq(books.id, campaign.bookId));
  const signInUrl = await issueLoginLink(deps, tx, application.email, { createAccount: false });
  await deps.mailer.enqueue(
    approvalMail({
      to: application.email,
      name: application.name,
      bookTitle: book.title,
      format: campaign.format,
      signInUrl,
      reviewPageUrl: reviewPageUrl(deps, campaign.slug),
      loginUrl: `${site(deps)}/login`,
    }),
    tx,
  );
  return 'approved';
}

/** Approves or declines the chosen applications of one campaign, each in its own transaction. */
export async function decideApplications(deps: Deps, actor: ActorId, campaignId: number, ids: number[], decision: 'approve' | 'decline'): Promise<DecideAnswer> {
  const { db } = deps.database;
  await findCampaign(db, campaignId);
  const now = deps.clock.now();
  let approved = 0;
  let declined = 0;
  let full = 0;
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    await db.transaction(async (tx) => {
      if (decision === 'approve') {
        const outcome = await approveInTx(deps, tx, campaignId, id, now);
        if (outcome === 'approved') approved += 1;
        if (outcome === 'full') full += 1;
      } else {
        const done = await tx
          .update(reviewApplications)
          .set({ status: 'declined', decidedAt: now })
          .where(and(eq(reviewApplications.id, id), eq(reviewApplications.campaignId, campaignId), eq(reviewApplications.status, 'pending')))
          .returning({ id: reviewApplications.id });
        declined += done.length;
      }
    });
  }
  const skipped = ids.length - approved - declined;
  if (approved + declined > 0) {
    await audit(db, actor, { action: `review-application.${decision}`, targetType: 'review-campaign', targetId: campaignId, details: { approved, declined, skipped } }, now);
  }
  const parts = [
    decision === 'approve' ? `${approved} approved` : `${declined} declined`,
    ...(skipped > 0 ? [`${skipped} skipped (already decided${full > 0 ? ' or no copies left' : ''})`] : []),
  ];
  return { approved, declined, skipped, message: `${parts.join(', ')}.` };
}

/**
 * Withdraws, once the campaign has closed, every approved copy without a review that its reader never
 * downloaded, opened in the reading room or sent to a device: its library row is deleted (no personal
 * file was ever made of it) and the application says "withdrawn". Copies that were opened stay.
 */
export async function withdrawUnread(deps: Deps, actor: ActorId, campaignId: number): Promise<WithdrawAnswer> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const campaign = await findCampaign(db, campaignId);
  if (now < campaign.closesAt) throw new AppError('CAMPAIGN_OPEN', 409, REVIEW_COPY_MESSAGES.stillOpen);
  return db.transaction(async (tx) => {
    const waiting = await tx
      .select({ id: reviewApplications.id, purchaseId: reviewApplications.purchaseId })
      .from(reviewApplications)
      .where(and(eq(reviewApplications.campaignId, campaignId), eq(reviewApplications.status, 'approved'), isNull(reviewApplications.reviewPostedAt), isNotNull(reviewApplications.purchaseId)))
      .for('update');
    const purchaseIds = waiting.map((w) => w.purchaseId!);
    const removed =
      purchaseIds.length === 0
        ? []
        : await tx
            .delete(purchases)
            .where(
              and(
                inArray(purchases.id, purchaseIds),
                eq(purchases.kind, 'review_copy'),
                eq(purchases.downloadCount, 0),
                isNull(purchases.lastDownloaded),
                sql`not exists (select 1 from personal_copies pc where pc.purchase_id = ${purchases.id})`,
                sql`not exists (select 1 from kindle_sends k where k.purchase_id = ${purchases.id})`,
                sql`not exists (select 1 from reading_positions r where r.user_id = ${purchases.userId} and r.book_id = ${purchases.bookId})`,
              ),
            )
            .returning({ id: purchases.id });
    const removedIds = new Set(removed.map((r) => r.id));
    const withdrawnIds = waiting.filter((w) => removedIds.has(w.purchaseId!)).map((w) => w.id);
    if (withdrawnIds.length > 0) {
      await tx.update(reviewApplications).set({ status: 'withdrawn' }).where(inArray(reviewApplications.id, withdrawnIds));
    }
    await tx.update(reviewCampaigns).set({ withdrawnAt: now }).where(eq(reviewCampaigns.id, campaignId));
    const kept = waiting.length - withdrawnIds.length;
    await audit(tx, actor, { action: 'review-campaign.withdraw', targetType: 'review-campaign', targetId: campaignId, details: { withdrawn: withdrawnIds.length, kept } }, now);
    const copies = (n: number) => (n === 1 ? '1 copy' : `${n} copies`);
    return {
      withdrawn: withdrawnIds.length,
      kept,
      message: `${copies(withdrawnIds.length)} withdrawn, ${copies(kept)} kept (already opened by ${kept === 1 ? 'its reader' : 'their readers'}).`,
    };
  });
}

/**
 * Sends the reminders that are due: to each approved reader without a review link whose last mail (the
 * approval or the previous reminder) is `reminderDays` old, or, for `campaignId` with `now: true`, to every
 * such reader of that campaign at once. Each reminder is claimed by one conditional UPDATE, in the same
 * transaction as its mail, so two instances never send the same one.
 */
export async function sendReminders(deps: Deps, options: { campaignId?: number; all?: boolean } = {}): Promise<{ sent: number }> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const due = sql`${now.toISOString()}::timestamptz >= coalesce(${reviewApplications.lastRemindedAt}, ${reviewApplications.decidedAt}) + ${reviewCampaigns.reminderDays} * interval '1 day'`;
  const rows = await db
    .select({ id: reviewApplications.id, name: reviewApplications.name, email: reviewApplications.email, last: reviewApplications.lastRemindedAt, slug: reviewCampaigns.slug, bookTitle: books.title })
    .from(reviewApplications)
    .innerJoin(reviewCampaigns, eq(reviewCampaigns.id, reviewApplications.campaignId))
    .innerJoin(books, eq(books.id, reviewCampaigns.bookId))
    .where(
      and(
        eq(reviewApplications.status, 'approved'),
        isNull(reviewApplications.reviewPostedAt),
        options.campaignId === undefined ? undefined : eq(reviewApplications.campaignId, options.campaignId),
        options.all ? undefined : due,
      ),
    )
    .orderBy(asc(reviewApplications.id))
    .limit(500);
  let sent = 0;
  for (const row of rows) {
    await db.transaction(async (tx) => {
      const claimed = await tx
        .update(reviewApplications)
        .set({ lastRemindedAt: now, remindersSent: sql`${reviewApplications.remindersSent} + 1` })
        .where(
          and(
            eq(reviewApplications.id, row.id),
            eq(reviewApplications.status, 'approved'),
            isNull(reviewApplications.reviewPostedAt),
            row.last === null ? isNull(reviewApplications.lastRemindedAt) : eq(reviewApplications.lastRemindedAt, row.last),
          ),
        )
        .returning({ id: reviewApplications.id });
      if (claimed.length === 0) return;
      await deps.mailer.enqueue(reminderMail({ to: row.email, name: row.name, bookTitle: row.bookTitle, reviewPageUrl: reviewPageUrl(deps, row.slug) }), tx);
      sent += 1;
    });
  }
  if (sent > 0) deps.log.info({ sent, campaignId: options.campaignId }, 'review copy reminders sent');
  return { sent };
}

