import { and, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_COPY_MESSAGES } from '@shared/schemas/review-copies';
import { auditLog, jobs, purchases, reviewApplications, reviewCampaigns, reviewLinks, users } from '../../db/schema';
import { smtpTransport } from '../../platform/mail/mail';
import { escapeMarkup } from '../../platform/http/markup';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId } from '../checkout/test-support';
import { postFile } from '../copies/test-support';
import { REMINDER_JOB } from './approval';

const DAY = 24 * 60 * 60_000;
let ipCounter = 0;
const freshIp = () => `10.31.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
let slugCounter = 0;

describe('review copies: campaigns, applications, approval, review links, reminders and withdrawal', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  let bookId: number;
  let admin: TestAgent;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp({ mailTransport: smtpTransport(smtp.url), env: { PUBLIC_URL: 'https://book.example.com' } });
    bookId = await featuredBookId(t.app);
    admin = (await adminAgent(t)).agent;
    await t.app.deps.jobs.ensureRecurring();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const now = () => t.clock.now().getTime();
  const campaignInput = (fields: Record<string, unknown> = {}) => ({
    bookId,
    format: 'ebook',
    slug: `early-readers-${++slugCounter}`,
    opensAt: new Date(now() - DAY).toISOString(),
    closesAt: new Date(now() + 30 * DAY).toISOString(),
    copies: 5,
    question: 'Which thriller did you review last, and where?',
    autoApprove: false,
    reminderDays: 7,
    ...fields,
  });
  async function createCampaign(fields: Record<string, unknown> = {}) {
    const input = campaignInput(fields);
    const res = await admin.post('/api/admin/review-copies', input);
    expect(res.statusCode, res.body).toBe(201);
    const campaign = res.json().find((c: { slug: string }) => c.slug === input.slug);
    return campaign as { id: number; slug: string };
  }
  let applicantCounter = 0;
  const application = (fields: Record<string, unknown> = {}) => ({
    name: 'Maud Critic',
    email: `critic${++applicantCounter}-${Math.random().toString(36).slice(2, 6)}@example.com`,
    reviewsWhere: 'My blog and Goodreads',
    answer: 'Night Harbour, on my blog last month.',
    profileLinks: ['https://goodreads.example.com/maud'],
    ...fields,
  });
  const applyTo = (slug: string, body: Record<string, unknown>) =>
    new TestAgent(t.app).request({ method: 'POST', url: `/api/review-copies/${slug}/apply`, payload: body, remoteAddress: freshIp() });
  async function applied(slug: string, campaignId: number, fields: Record<string, unknown> = {}) {
    const body = application(fields);
    const res = await applyTo(slug, body);
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db.select().from(reviewApplications).where(and(eq(reviewApplications.campaignId, campaignId), eq(reviewApplications.email, body.email as string)));
    return row;
  }
  const decide = (campaignId: number, ids: number[], decision: 'approve' | 'decline') =>
    admin.post(`/api/admin/review-copies/${campaignId}/decide`, { ids, decision });
  /** Runs the job runner until `to` has `count` mails whose subject matches. */
  async function mailsTo(to: string, subject: RegExp, count = 1) {
    for (let round = 0; round < 50; round += 1) {
      // The test clock stands still, so the dispatch job is made due each round, as an enqueue's kick would.
      await t.app.deps.jobs.trigger('mail-dispatch');
      await t.app.deps.jobs.runDue(20);
      const found = smtp.inbox.filter((m) => m.to.includes(to) && subject.test(m.raw));
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`expected ${count} mail(s) to ${to} matching ${subject}`);
  }
  const mailCount = (to: string, subject: RegExp) => smtp.inbox.filter((m) => m.to.includes(to) && subject.test(m.raw)).length;
  /** Signs in with the link in the approval mail, as the reader's browser would. */
  async function signInFromMail(raw: string) {
    const url = new URL(raw.match(/https:\/\/book\.example\.com\/login-link\?token=[A-Za-z0-9_-]+/)![0]);
    const agent = new TestAgent(t.app);
    const res = await agent.request({ method: 'POST', url: '/api/users/login-link/use', payload: { token: url.searchParams.get('token') }, remoteAddress: freshIp() });
    expect(res.statusCode, res.body).toBe(200);
    agent.bearer = res.json().token ?? agent.bearer;
    return agent;
  }


  it('serves /review-copies/{slug} with its own title for crawlers; an unknown campaign is a 404 page', async () => {
    const { slug } = await createCampaign();
    const { book } = (await new TestAgent(t.app).get(`/api/review-copies/${slug}`)).json() as { book: { title: string } };
    const html = await new TestAgent(t.app).get(`/review-copies/${slug}`);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain(`<title>${escapeMarkup(`Review copies: ${book.title} | What We Owe the Dead`)}</title>`);
    expect(html.body).toContain(`<link rel="canonical" href="https://book.example.com/review-copies/${slug}" />`);
    expect(html.body).toContain(`<meta name="description" content="${escapeMarkup(`Apply for a review copy of ${book.title} (E-Book).`)}"`);
    expect((await new TestAgent(t.app).get('/review-copies/no-such-campaign')).statusCode).toBe(404);
  });
  it('admin routes are for admins only', async () => {
    const campaign = await createCampaign();
    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    const anonymous = new TestAgent(t.app);
    for (const [method, url, body] of [
      ['GET', '/api/admin/review-copies', undefined],
      ['POST', '/api/admin/review-copies', campaignInput()],
      ['PUT', `/api/admin/review-copies/${campaign.id}`, campaignInput()],
      ['GET', `/api/admin/review-copies/${campaign.id}/applications`, undefined],
      ['POST', `/api/admin/review-copies/${campaign.id}/decide`, { ids: [1], decision: 'approve' }],
      ['POST', `/api/admin/review-copies/${campaign.id}/remind`, undefined],
      ['POST', `/api/admin/review-copies/${campaign.id}/withdraw`, undefined],
    ] as const) {
      expect((await anonymous.request({ method, url, payload: body })).statusCode, url).toBe(401);
      expect((await reader.request({ method, url, payload: body })).statusCode, url).toBe(403);
    }
  });

  it('validates a campaign with clear messages and stores nothing on bad input', async () => {
    const before = await t.database.db.select().from(reviewCampaigns);
    for (const [fields, field, message] of [
      [{ slug: 'Not A Slug' }, 'slug', REVIEW_COPY_MESSAGES.slug],
      [{ format: 'audiobook' }, 'format', REVIEW_COPY_MESSAGES.format],
      [{ copies: 0 }, 'copies', REVIEW_COPY_MESSAGES.copies],
      [{ reminderDays: 0 }, 'reminderDays', REVIEW_COPY_MESSAGES.reminderDays],
      [{ question: '   ' }, 'question', REVIEW_COPY_MESSAGES.question],
      [{ opensAt: 'tomorrow' }, 'opensAt', REVIEW_COPY_MESSAGES.opensAt],
      [{ closesAt: new Date(now() - 2 * DAY).toISOString() }, 'closesAt', REVIEW_COPY_MESSAGES.closesBeforeOpen],
    ] as const) {
      const res = await admin.post('/api/admin/review-copies', campaignInput(fields));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    const unknownBook = await admin.post('/api/admin/review-copies', campaignInput({ bookId: 999999 }));
    expect(unknownBook.statusCode).toBe(404);
    expect(unknownBook.json().message).toBe(REVIEW_COPY_MESSAGES.bookNotFound);
    expect(await t.database.db.select().from(reviewCampaigns)).toEqual(before);

    const campaign = await createCampaign();
    const taken = await admin.post('/api/admin/review-copies', campaignInput({ slug: campaign.slug }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toEqual({ slug: REVIEW_COPY_MESSAGES.slugTaken });
    const edited = await admin.put(`/api/admin/review-copies/${campaign.id}`, campaignInput({ slug: campaign.slug, copies: 12, autoApprove: true }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json().find((c: { id: number }) => c.id === campaign.id)).toMatchObject({ copies: 12, autoApprove: true, state: 'open', bookTitle: 'What We Owe the Dead' });
    expect((await admin.put('/api/admin/review-copies/999999', campaignInput())).statusCode).toBe(404);
  });

  it('the public page tells an open campaign from an upcoming, closed or full one, and refuses applications to them', async () => {
    const open = await createCampaign();
    const page = await new TestAgent(t.app).get(`/api/review-copies/${open.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ slug: open.slug, state: 'open', formatLabel: 'E-Book', question: 'Which thriller did you review last, and where?', book: { id: bookId } });
    expect((await new TestAgent(t.app).get('/api/review-copies/no-such-campaign')).statusCode).toBe(404);

    const upcoming = await createCampaign({ opensAt: new Date(now() + DAY).toISOString() });
    const closed = await createCampaign({ opensAt: new Date(now() - 10 * DAY).toISOString(), closesAt: new Date(now() - DAY).toISOString() });
    const full = await createCampaign({ copies: 1, autoApprove: true });
    expect((await applyTo(full.slug, application())).json().status).toBe('approved');
    for (const [slug, state, message] of [
      [upcoming.slug, 'upcoming', REVIEW_COPY_MESSAGES.notOpenYet],
      [closed.slug, 'closed', REVIEW_COPY_MESSAGES.closed],
      [full.slug, 'full', REVIEW_COPY_MESSAGES.full],
    ] as const) {
      expect((await new TestAgent(t.app).get(`/api/review-copies/${slug}`)).json().state).toBe(state);
      const res = await applyTo(slug, application());
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(message);
    }
  });

  it('validates an application field by field, takes one per address, and stores nothing on bad input', async () => {
    const campaign = await createCampaign();
    for (const [fields, field, message] of [
      [{ name: '  ' }, 'name', REVIEW_COPY_MESSAGES.name],
      [{ email: 'not-an-address' }, 'email', REVIEW_COPY_MESSAGES.email],
      [{ reviewsWhere: '' }, 'reviewsWhere', REVIEW_COPY_MESSAGES.reviewsWhere],
      [{ answer: '' }, 'answer', REVIEW_COPY_MESSAGES.answer],
      [{ profileLinks: ['javascript:alert(1)'] }, 'profileLinks.0', REVIEW_COPY_MESSAGES.profileLink],
      [{ profileLinks: ['https://a.example.com', 'https://b.example.com', 'https://c.example.com', 'https://d.example.com'] }, 'profileLinks', REVIEW_COPY_MESSAGES.profileLinks],
    ] as const) {
      const res = await applyTo(campaign.slug, application(fields));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().fields[field], field).toBe(message);
    }
    expect(await t.database.db.select().from(reviewApplications).where(eq(reviewApplications.campaignId, campaign.id))).toEqual([]);

    const first = application();
    const ok = await applyTo(campaign.slug, first);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ status: 'pending', message: REVIEW_COPY_MESSAGES.applied });
    const again = await applyTo(campaign.slug, application({ email: (first.email as string).toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REVIEW_COPY_MESSAGES.alreadyApplied);
    const list = await admin.get(`/api/admin/review-copies/${campaign.id}/applications`);
    expect(list.json()).toEqual([
      expect.objectContaining({ name: 'Maud Critic', email: first.email, status: 'pending', profileLinks: ['https://goodreads.example.com/maud'], keptWithoutReview: [], reviewLinks: [] }),
    ]);
  });

  it('bulk approval gives each reader a passwordless account, a traceable copy they read after signing in from the mail, up to the number of copies', async () => {
    const campaign = await createCampaign({ copies: 2 });
    const a = await applied(campaign.slug, campaign.id, { name: 'Ada Early' });
    const b = await applied(campaign.slug, campaign.id);
    const c = await applied(campaign.slug, campaign.id);
    const existing = await createUser(t.database, { email: `known-${Math.random().toString(36).slice(2, 6)}@example.com` });
    const known = await applied(campaign.slug, campaign.id, { email: existing.email });

    const bulk = await decide(campaign.id, [a.id, b.id, c.id], 'approve');
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json()).toEqual({ approved: 2, declined: 0, skipped: 1, message: '2 approved, 1 skipped (already decided or no copies left).' });
    const declined = await decide(campaign.id, [c.id, known.id, a.id], 'decline');
    expect(declined.json()).toMatchObject({ approved: 0, declined: 2, skipped: 1 });
    expect((await decide(campaign.id, [], 'approve')).json().fields.ids).toBe(REVIEW_COPY_MESSAGES.ids);
    expect((await decide(campaign.id, [a.id], 'maybe' as 'approve')).statusCode).toBe(400);
    expect((await decide(999999, [a.id], 'approve')).statusCode).toBe(404);

    const [account] = await t.database.db.select().from(users).where(eq(users.email, a.email));
    expect(account.passwordHash).toBeNull();
    const [copy] = await t.database.db.select().from(purchases).where(eq(purchases.userId, account.id));
    expect(copy).toMatchObject({ kind: 'review_copy', price: 0, format: 'ebook', bookId, status: 'completed' });

    const [mail] = await mailsTo(a.email, /Subject: Your review copy of/);
    expect(mail.raw).toContain('Your application for a review copy was approved: What We Owe the Dead (E-Book) is now in your library, marked with your name.');
    expect(mail.raw).toContain('send it to your Kindle');
    expect(mail.raw).toContain(`https://book.example.com/review-copies/${campaign.slug}`);
    const reader = await signInFromMail(mail.raw);
    const library = await reader.get('/api/library/books');
    expect(library.json()).toEqual([expect.objectContaining({ id: copy.id, format: 'ebook', book: expect.objectContaining({ id: bookId }) })]);
    const content = await reader.get(`/api/library/${bookId}/ebook/content`);
    expect(content.statusCode).toBe(200);
    expect(new TextDecoder().decode(unzipSync(content.rawPayload)['OEBPS/ex-libris.xhtml'])).toContain('This copy belongs to');

    // The copy the reader opened names them to Trace a Copy.
    const traced = await postFile(admin, '/api/admin/trace', 'found-online.epub', content.rawPayload);
    expect(traced.statusCode, traced.body).toBe(200);
    expect(traced.json()).toMatchObject({ purchaseId: copy.id, userId: account.id, email: a.email, format: 'ebook' });

    const mine = await reader.get('/api/review-copies/mine');
    expect(mine.json()).toEqual([expect.objectContaining({ id: a.id, slug: campaign.slug, status: 'approved', bookTitle: 'What We Owe the Dead', reviewLinks: [] })]);
    const [entry] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'review-application.approve'), eq(auditLog.targetId, String(campaign.id))));
    expect(entry.details).toEqual({ approved: 2, declined: 0, skipped: 1 });
  });

  it('an automatic campaign approves at once; a reader posts links only for their own approved copy', async () => {
    const campaign = await createCampaign({ autoApprove: true });
    const body = application();
    const res = await applyTo(campaign.slug, body);
    expect(res.json()).toEqual({ status: 'approved', message: REVIEW_COPY_MESSAGES.approvedAtOnce });
    const [mine] = await t.database.db.select().from(reviewApplications).where(eq(reviewApplications.email, body.email as string));
    const owner = await signedInAgent(t.app, mine.userId!);
    const stranger = await signedInAgent(t.app, (await createUser(t.database)).id);
    const url = 'https://blog.example.com/reviews/what-we-owe-the-dead';

    expect((await new TestAgent(t.app).post(`/api/review-copies/applications/${mine.id}/links`, { url })).statusCode).toBe(401);
    const foreign = await stranger.post(`/api/review-copies/applications/${mine.id}/links`, { url });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(REVIEW_COPY_MESSAGES.applicationNotFound);
    expect((await stranger.get('/api/review-copies/mine')).json()).toEqual([]);
    const bad = await owner.post(`/api/review-copies/applications/${mine.id}/links`, { url: 'ftp://example.com/x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.url).toBe(REVIEW_COPY_MESSAGES.reviewUrl);
    expect(await t.database.db.select().from(reviewLinks).where(eq(reviewLinks.applicationId, mine.id))).toEqual([]);

    const posted = await owner.post(`/api/review-copies/applications/${mine.id}/links`, { url });
    expect(posted.statusCode).toBe(201);
    expect(posted.json()[0].reviewLinks).toEqual([{ url, postedAt: t.clock.now().toISOString() }]);
    const twice = await owner.post(`/api/review-copies/applications/${mine.id}/links`, { url });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(REVIEW_COPY_MESSAGES.linkTwice);

    // A pending application has no reader yet: nobody can post for it.
    const pending = await applied((await createCampaign()).slug, (await t.database.db.select().from(reviewCampaigns).where(eq(reviewCampaigns.slug, `early-readers-${slugCounter}`)))[0].id);
    expect((await owner.post(`/api/review-copies/applications/${pending.id}/links`, { url })).statusCode).toBe(404);
  });

  it('reminds every N days until a link is posted, then stops; "remind now" reaches only readers without a link', async () => {
    const campaign = await createCampaign({ reminderDays: 3 });
    const quiet = await applied(campaign.slug, campaign.id);
    const other = await applied(campaign.slug, campaign.id);
    await decide(campaign.id, [quiet.id, other.id], 'approve');
    await mailsTo(quiet.email, /Subject: Your review copy/);
    const reminder = /Subject: A reminder about your review/;

    t.clock.advance(2 * DAY);
    await t.app.deps.jobs.runDue(20);
    expect(mailCount(quiet.email, reminder)).toBe(0);
    t.clock.advance(DAY + 60_000);
    const [first] = await mailsTo(quiet.email, reminder);
    expect(first.raw).toContain(`Post your review: https://book.example.com/review-copies/${campaign.slug}`);
    await mailsTo(other.email, reminder);

    const [row] = await t.database.db.select().from(reviewApplications).where(eq(reviewApplications.id, other.id));
    const reader = await signedInAgent(t.app, row.userId!);
    expect((await reader.post(`/api/review-copies/applications/${other.id}/links`, { url: 'https://shop.example.com/review/1' })).statusCode).toBe(201);

    t.clock.advance(3 * DAY + 60_000);
    await mailsTo(quiet.email, reminder, 2);
    expect(mailCount(other.email, reminder)).toBe(1);

    const now1 = await admin.post(`/api/admin/review-copies/${campaign.id}/remind`);
    expect(now1.json()).toEqual({ count: 1, message: '1 reminder sent.' });
    await mailsTo(quiet.email, reminder, 3);
    expect(mailCount(other.email, reminder)).toBe(1);
    const [quietRow] = await t.database.db.select().from(reviewApplications).where(eq(reviewApplications.id, quiet.id));
    expect(quietRow.remindersSent).toBe(3);
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.key, REMINDER_JOB));
    expect(job.lastError).toBeNull();
  });

  it('flags an applicant who kept a closed campaign’s copy without a review; withdraws only unread copies after the close', async () => {
    const campaign = await createCampaign({ closesAt: new Date(now() + 2 * DAY).toISOString() });
    const unread = await applied(campaign.slug, campaign.id, { email: `keeper-${Math.random().toString(36).slice(2, 6)}@example.com` });
    const opened = await applied(campaign.slug, campaign.id);
    const reviewed = await applied(campaign.slug, campaign.id);
    await decide(campaign.id, [unread.id, opened.id, reviewed.id], 'approve');
    const userOf = async (id: number) => (await t.database.db.select().from(reviewApplications).where(eq(reviewApplications.id, id)))[0].userId!;
    const openedReader = await signedInAgent(t.app, await userOf(opened.id));
    expect((await openedReader.get(`/api/library/${bookId}/ebook/content`)).statusCode).toBe(200);
    const reviewer = await signedInAgent(t.app, await userOf(reviewed.id));
    await reviewer.post(`/api/review-copies/applications/${reviewed.id}/links`, { url: 'https://video.example.com/watch?v=1' });

    const early = await admin.post(`/api/admin/review-copies/${campaign.id}/withdraw`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(REVIEW_COPY_MESSAGES.stillOpen);

    t.clock.advance(3 * DAY);
    const next = await createCampaign();
    const again = await applied(next.slug, next.id, { email: unread.email.toUpperCase() });
    const honest = await applied(next.slug, next.id, { email: reviewed.email });
    const list = (await admin.get(`/api/admin/review-copies/${next.id}/applications`)).json();
    expect(list.find((x: { id: number }) => x.id === again.id).keptWithoutReview).toEqual(['What We Owe the Dead']);
    expect(list.find((x: { id: number }) => x.id === honest.id).keptWithoutReview).toEqual([]);

    const unreadUser = await userOf(unread.id);
    const withdrawn = await admin.post(`/api/admin/review-copies/${campaign.id}/withdraw`);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toEqual({ withdrawn: 1, kept: 1, message: '1 copy withdrawn, 1 copy kept (already opened by its reader).' });
    expect(await t.database.db.select().from(purchases).where(eq(purchases.userId, unreadUser))).toEqual([]);
    expect((await (await signedInAgent(t.app, unreadUser)).get('/api/library/books')).json()).toEqual([]);
    expect((await openedReader.get('/api/library/books')).json()).toHaveLength(1);
    const statuses = await t.database.db.select({ id: reviewApplications.id, status: reviewApplications.status }).from(reviewApplications).where(eq(reviewApplications.campaignId, campaign.id));
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [unread.id]: 'withdrawn', [opened.id]: 'approved', [reviewed.id]: 'approved' });
    const campaigns = (await admin.get('/api/admin/review-copies')).json();
    expect(campaigns.find((c: { id: number }) => c.id === campaign.id)).toMatchObject({ state: 'closed', approved: 2, withdrawn: 1, reviewed: 1, applications: 3 });
    // A withdrawn copy takes no review links and gets no reminders.
    expect((await (await signedInAgent(t.app, unreadUser)).post(`/api/review-copies/applications/${unread.id}/links`, { url: 'https://x.example.com/r' })).statusCode).toBe(409);
  });
});
