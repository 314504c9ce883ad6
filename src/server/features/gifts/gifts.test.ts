import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { CONTROL_CHARACTERS_MESSAGE } from '@shared/schemas/common';
import { GIFT_CLAIM_MESSAGES, GIFT_MESSAGES } from '@shared/schemas/gifts';
import { checkoutSessions, gifts, mailOutbox, purchases } from '../../db/schema';
import { seedFilesDir } from '../../platform/operations/seed';
import { personalisePdf } from '../copies/personalise-pdf';
import { getDashboardStats } from '../dashboard/service';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { assetIdOf, featuredBookId } from '../checkout/test-support';
import { adminAgent } from '../admin/test-fixtures';

const DAY = 24 * 60 * 60 * 1000;

describe('gifts: buy for someone else, send, claim once', () => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com' } });
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  const reader = async (fields: { email?: string; displayName?: string } = {}) => {
    const user = await createUser(t.database, fields);
    return { user, agent: await signedInAgent(t.app, user.id) };
  };
  type Reader = Awaited<ReturnType<typeof reader>>;

  const giftMails = (to: string) =>
    t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, 'gift')));
  const tokenOf = (text: string) => /\/gift\/([\w-]+)/.exec(text)![1];

  async function buyGift(buyer: Reader, gift: Record<string, unknown>, format = 'ebook') {
    const res = await buyer.agent.post('/api/checkout', { bookId, format, gift });
    expect(res.statusCode, res.body).toBe(200);
    const sessionId = res.json().url.split('/').pop() as string;
    // The payment page names whom the gift is for, before anything is paid.
    const page = (await buyer.agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page.gift).toEqual({ recipientName: gift.recipientName, recipientEmail: gift.recipientEmail, sendAt: gift.sendAt ?? null });
    const paid = await buyer.agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(paid.statusCode, paid.body).toBe(200);
    const [session] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    return session.purchaseId!;
  }

  it('a paid gift is the buyer\'s revenue row but not their format; the recipient claims it from the mail', async () => {
    const buyer = await reader({ displayName: 'Ada Buyer' });
    const recipientEmail = `friend-${Date.now()}@example.org`;
    const purchaseId = await buyGift(buyer, { recipientName: 'Fran', recipientEmail, message: 'For the long train home.' });

    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, purchaseId));
    expect(row).toMatchObject({ kind: 'gift', price: 999, userId: buyer.user.id, status: 'completed', maxDownloads: 0 });
    // The buyer's library does not get the format, and its file is not theirs.
    expect((await buyer.agent.get('/api/library/books')).json()).toEqual([]);
    const asset = await buyer.agent.get(`/api/books/${bookId}/assets?format=ebook`);
    expect(asset.statusCode).toBe(403);

    const [receipt] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, buyer.user.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipt.text).toContain('Your gift for Fran is on its way');
    expect(receipt.text).not.toContain('waiting in your library');

    // Without sendAt the send job runs at once.
    await t.app.deps.jobs.runDue();
    const [mail] = await giftMails(recipientEmail);
    expect(mail.subject).toBe('Ada Buyer has sent you a gift: What We Owe the Dead');
    expect(mail.text).toContain('For the long train home.');
    expect(mail.text).toContain('https://shop.example.com/gift/');
    const token = tokenOf(mail.text);
    const [stored] = await t.database.db.select().from(gifts).where(eq(gifts.purchaseId, purchaseId));
    expect(stored.tokenHash).not.toContain(token);

    const orders = (await buyer.agent.get('/api/library/orders')).json();
    expect(orders[0]).toMatchObject({ id: purchaseId, format: 'ebook', gift: { recipientName: 'Fran', status: 'sent', canResend: true } });

    // Opening the link only shows the gift.
    const view = await new (await import('../../test/helpers')).TestAgent(t.app).get(`/api/gifts/${token}`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      from: 'Ada Buyer',
      message: 'For the long train home.',
      formatLabel: 'E-Book',
      state: 'open',
      book: { title: 'What We Owe the Dead' },
    });
    expect(await giftClaimRows(purchaseId)).toHaveLength(0);

    // Claiming needs an account, any email; the buyer cannot claim it.
    const anonymous = await new (await import('../../test/helpers')).TestAgent(t.app).post(`/api/gifts/${token}/claim`);
    expect(anonymous.statusCode).toBe(401);
    const own = await buyer.agent.post(`/api/gifts/${token}/claim`);
    expect(own.statusCode).toBe(409);
    const salesBefore = (await getDashboardStats(t.database.db)).salesStats;
    const recipient = await reader({ email: `someone-else-${Date.now()}@example.net` });
    const claim = await recipient.agent.post(`/api/gifts/${token}/claim`);
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json()).toMatchObject({ success: true, message: GIFT_CLAIM_MESSAGES.claimedNow, redirectTo: '/profile#library' });
    const library = (await recipient.agent.get('/api/library/books')).json();
    // The claimed e-book, and the PDF edition that comes with every e-book (decision 0066).
    expect(library).toHaveLength(2);
    expect(library[0]).toMatchObject({ format: 'ebook', bookId, maxDownloads: 1, downloadCount: 0 });
    expect(library[1]).toMatchObject({ format: 'pdf', bookId, maxDownloads: 1, downloadCount: 0, includedWith: 'ebook' });
    const [claimRow] = await giftClaimRows(purchaseId);
    // The gift is one sale (the buyer's £9.99); the recipient's copy is not another.
    const salesAfter = (await getDashboardStats(t.database.db)).salesStats;
    expect(salesAfter.totalSales).toBe(salesBefore.totalSales);
    expect(salesAfter.totalRevenue).toBe(salesBefore.totalRevenue);
    expect(claimRow).toMatchObject({ kind: 'gift_claim', price: 0, userId: recipient.user.id, paidByPurchaseId: purchaseId });
    expect((await recipient.agent.get(`/api/books/${bookId}/assets?format=ebook`)).statusCode).toBe(200);
    // The PDF row is paid for by the gift, so refunding the gift takes it along.
    const [pdfRow] = await t.database.db.select().from(purchases).where(eq(purchases.id, library[1].id));
    expect(pdfRow).toMatchObject({ kind: 'included', price: 0, userId: recipient.user.id, paidByPurchaseId: purchaseId });

    // Once only.
    const third = await reader();
    const again = await third.agent.post(`/api/gifts/${token}/claim`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(GIFT_CLAIM_MESSAGES.claimed);
    expect((await third.agent.get('/api/library/books')).json()).toEqual([]);
    expect((await buyer.agent.get('/api/library/books')).json()).toEqual([]);
    const after = (await buyer.agent.get('/api/library/orders')).json();
    expect(after[0].gift).toMatchObject({ status: 'claimed', canResend: false });
    expect((await t.app.inject({ url: `/api/gifts/${token}` })).json().state).toBe('claimed');

    // The author's orders say a gift was downloaded only once the recipient has downloaded it.
    const { agent: admin } = await adminAgent(t);
    const giftOrder = async () =>
      ((await admin.get(`/api/admin/orders?q=${after[0].orderReference}`)).json().items as Array<{ id: number; gift: unknown }>).find((o) => o.id === purchaseId)!;
    expect((await giftOrder()).gift).toMatchObject({ recipientName: 'Fran', status: 'claimed', downloaded: false });
    const link = await recipient.agent.get(`/api/digital-assets/${await assetIdOf(t, bookId, 'ebook')}/download`);
    expect(link.statusCode, link.body).toBe(200);
    expect((await giftOrder()).gift).toMatchObject({ status: 'claimed', downloaded: true });
  });

  const giftClaimRows = (paidBy: number) =>
    t.database.db.select().from(purchases).where(and(eq(purchases.paidByPurchaseId, paidBy), eq(purchases.kind, 'gift_claim')));

  it('a gift with sendAt is mailed at that moment, not before (injected clock)', async () => {
    const buyer = await reader();
    const recipientEmail = `later-${Date.now()}@example.org`;
    const sendAt = new Date(t.clock.now().getTime() + 2 * DAY);
    const purchaseId = await buyGift(buyer, { recipientName: 'Lou', recipientEmail, sendAt: sendAt.toISOString() });
    await t.app.deps.jobs.runDue();
    expect(await giftMails(recipientEmail)).toHaveLength(0);
    let orders = (await buyer.agent.get('/api/library/orders')).json();
    expect(orders.find((o: { id: number }) => o.id === purchaseId).gift).toMatchObject({ status: 'scheduled', sendAt: sendAt.toISOString(), canResend: false });
    const early = await buyer.agent.post(`/api/orders/gifts/${orders[0].gift.id}/resend`);
    expect(early.statusCode).toBe(409);

    t.clock.set(new Date(sendAt.getTime() - 1000));
    await t.app.deps.jobs.runDue();
    expect(await giftMails(recipientEmail)).toHaveLength(0);
    t.clock.set(sendAt);
    await t.app.deps.jobs.runDue();
    expect(await giftMails(recipientEmail)).toHaveLength(1);
    orders = (await buyer.agent.get('/api/library/orders')).json();
    expect(orders.find((o: { id: number }) => o.id === purchaseId).gift.status).toBe('sent');
    // A second run of the due jobs mails nobody again.
    await t.app.deps.jobs.runDue();
    expect(await giftMails(recipientEmail)).toHaveLength(1);
  });

  it('the buyer may resend a sent gift, at most every 10 minutes; the newest link is the one that works', async () => {
    const buyer = await reader();
    const recipientEmail = `resend-${Date.now()}@example.org`;
    const purchaseId = await buyGift(buyer, { recipientName: 'Rae', recipientEmail });
    await t.app.deps.jobs.runDue();
    const [first] = await giftMails(recipientEmail);
    const [gift] = await t.database.db.select().from(gifts).where(eq(gifts.purchaseId, purchaseId));
    const tooSoon = await buyer.agent.post(`/api/orders/gifts/${gift.id}/resend`);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toBe(GIFT_CLAIM_MESSAGES.resendTooSoon);
    const stranger = await reader();
    expect((await stranger.agent.post(`/api/orders/gifts/${gift.id}/resend`)).statusCode).toBe(404);

    t.clock.advance(11 * 60_000);
    const [a, b] = await Promise.all([
      buyer.agent.post(`/api/orders/gifts/${gift.id}/resend`),
      buyer.agent.post(`/api/orders/gifts/${gift.id}/resend`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 429]);
    await t.app.deps.jobs.runDue();
    const mails = await giftMails(recipientEmail);
    expect(mails).toHaveLength(2);
    const oldToken = tokenOf(first.text);
    const newToken = tokenOf(mails.find((m) => m.id !== first.id)!.text);
    expect((await t.app.inject({ url: `/api/gifts/${oldToken}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/gifts/${newToken}` })).statusCode).toBe(200);
  });

  it('a refunded gift is not sent and cannot be claimed', async () => {
    const buyer = await reader();
    const recipientEmail = `refunded-${Date.now()}@example.org`;
    const sendAt = new Date(t.clock.now().getTime() + DAY);
    const scheduled = await buyGift(buyer, { recipientName: 'Sam', recipientEmail, sendAt: sendAt.toISOString() });
    const sentNow = await buyGift(buyer, { recipientName: 'Sam', recipientEmail });
    await t.app.deps.jobs.runDue();
    const [mail] = await giftMails(recipientEmail);
    // What the refund (issue 15 point 5) does to the paying row.
    for (const id of [scheduled, sentNow]) {
      await t.database.db.update(purchases).set({ status: 'refunded', refundedAt: t.clock.now() }).where(eq(purchases.id, id));
    }
    const token = tokenOf(mail.text);
    expect((await t.app.inject({ url: `/api/gifts/${token}` })).json().state).toBe('refunded');
    const recipient = await reader();
    const claim = await recipient.agent.post(`/api/gifts/${token}/claim`);
    expect(claim.statusCode).toBe(409);
    expect(claim.json().message).toBe(GIFT_CLAIM_MESSAGES.refunded);
    expect((await recipient.agent.get('/api/library/books')).json()).toEqual([]);
    t.clock.set(sendAt);
    await t.app.deps.jobs.runDue();
    expect(await giftMails(recipientEmail)).toHaveLength(1);
    const orders = (await buyer.agent.get('/api/library/orders')).json();
    expect(orders.filter((o: { gift?: { status: string } }) => o.gift?.status === 'refunded')).toHaveLength(2);
  });

  it('refuses a bad gift with a clear message and creates nothing', async () => {
    const buyer = await reader();
    const before = (await t.database.db.select().from(checkoutSessions)).length;
    const ok = { recipientName: 'Kit', recipientEmail: 'kit@example.org' };
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ ...ok, message: 'x'.repeat(501) }, GIFT_MESSAGES.messageTooLong],
      [{ ...ok, recipientEmail: 'not-an-email' }, GIFT_MESSAGES.emailInvalid],
      [{ ...ok, recipientName: '  ' }, GIFT_MESSAGES.nameRequired],
      [{ ...ok, sendAt: new Date(t.clock.now().getTime() - 60_000).toISOString() }, GIFT_MESSAGES.sendAtPast],
      [{ ...ok, sendAt: 'next tuesday' }, GIFT_MESSAGES.sendAtInvalid],
      [ok, GIFT_MESSAGES.digitalOnly, 'hardcover'],
    ];
    for (const [gift, message, format] of cases) {
      const res = await buyer.agent.post('/api/checkout', { bookId, format: format ?? 'ebook', gift });
      expect(res.statusCode, JSON.stringify(gift).slice(0, 80)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    // Exactly 500 characters is fine.
    const fine = await buyer.agent.post('/api/checkout', { bookId, format: 'ebook', gift: { ...ok, message: 'y'.repeat(500) } });
    expect(fine.statusCode).toBe(200);
    expect((await t.database.db.select().from(checkoutSessions)).length).toBe(before + 1);
  });

  it('concurrent claims of one gift: exactly one wins', async () => {
    const buyer = await reader();
    const recipientEmail = `race-${Date.now()}@example.org`;
    const purchaseId = await buyGift(buyer, { recipientName: 'Max', recipientEmail });
    await t.app.deps.jobs.runDue();
    const token = tokenOf((await giftMails(recipientEmail))[0].text);
    const claimers = await Promise.all(Array.from({ length: 8 }, () => reader()));
    const results = await Promise.all(claimers.map((c) => c.agent.post(`/api/gifts/${token}/claim`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await giftClaimRows(purchaseId)).toHaveLength(1);
  });

  it("the recipient's personal copy carries the giver's message on its ex-libris page", async () => {
    const buyer = await reader({ displayName: 'Ada <Buyer>' });
    const recipientEmail = `copy-${Date.now()}@example.org`;
    await buyGift(buyer, { recipientName: 'Fran', recipientEmail, message: 'First line & more\nSecond line' });
    await t.app.deps.jobs.runDue();
    const token = tokenOf((await giftMails(recipientEmail))[0].text);
    const recipient = await reader({ displayName: 'Fran Reader' });
    expect((await recipient.agent.post(`/api/gifts/${token}/claim`)).statusCode).toBe(200);
    const assetId = await assetIdOf(t, bookId, 'ebook');
    const link = await recipient.agent.get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject({ url: link.json().downloadUrl });
    expect(file.statusCode).toBe(200);
    const entries = unzipSync(file.rawPayload);
    const exLibris = Buffer.from(Object.entries(entries).find(([name]) => name.endsWith('ex-libris.xhtml'))![1]).toString('utf8');
    expect(exLibris).toContain('This copy belongs to Fran Reader');
    expect(exLibris).toContain('<p class="gift">A gift from Ada &lt;Buyer&gt;</p>');
    expect(exLibris).toContain('<p class="dedication">First line &amp; more<br/>Second line</p>');
  });

  it('a recipient name or gift message with control characters or U+FFFE/U+FFFF is a 400; tabs and line breaks in a message are text', async () => {
    const buyer = await reader();
    const gift = { recipientName: 'Fran', recipientEmail: 'fran-chars@example.org' };
    const refused: Array<[Record<string, string>, string]> = [
      [{ recipientName: 'Fr\u0001an' }, 'gift.recipientName'],
      [{ recipientName: 'Fran\nSmith' }, 'gift.recipientName'],
      [{ recipientName: 'Fran\uffff' }, 'gift.recipientName'],
      [{ message: 'Happy\u0007 birthday' }, 'gift.message'],
      [{ message: 'Happy birthday\ufffe' }, 'gift.message'],
      [{ message: 'Happy\u001b[31m birthday' }, 'gift.message'],
    ];
    // From an address of its own, so these refusals do not spend the checkout limit of the other tests.
    const checkout = (body: Record<string, unknown>) => buyer.agent.request({ method: 'POST', url: '/api/checkout', payload: body, remoteAddress: '127.0.0.27' });
    for (const [patch, field] of refused) {
      const res = await checkout({ bookId, format: 'ebook', gift: { ...gift, ...patch } });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().fields, JSON.stringify(patch)).toEqual({ [field]: CONTROL_CHARACTERS_MESSAGE });
    }
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, buyer.user.id))).toEqual([]);
    const multiline = await checkout({ bookId, format: 'ebook', gift: { ...gift, message: 'Dear Fran,\r\n\tHappy birthday.\nAda' } });
    expect(multiline.statusCode, multiline.body).toBe(200);
  });

  it('names and a message stored with control characters still give a well-formed ex-libris page', async () => {
    // Rows written before the input rule existed: the EPUB builder drops what XML cannot hold.
    const buyer = await reader({ displayName: 'Ada\u0001 Giver\uffff' });
    const recipientEmail = `xml-${Date.now()}@example.org`;
    const purchaseId = await buyGift(buyer, { recipientName: 'Fran', recipientEmail, message: 'placeholder' });
    await t.database.db.update(gifts).set({ message: 'Happy\u0007 birthday\ufffe\nwith\u001b love' }).where(eq(gifts.purchaseId, purchaseId));
    await t.app.deps.jobs.runDue();
    const token = tokenOf((await giftMails(recipientEmail))[0].text);
    const recipient = await reader({ displayName: 'Fran\u0008 Reader\ufffe' });
    expect((await recipient.agent.post(`/api/gifts/${token}/claim`)).statusCode).toBe(200);
    const link = await recipient.agent.get(`/api/digital-assets/${await assetIdOf(t, bookId, 'ebook')}/download`, { auth: 'bearer' });
    const file = await t.app.inject({ url: link.json().downloadUrl });
    expect(file.statusCode).toBe(200);
    const entries = unzipSync(file.rawPayload);
    const exLibris = Buffer.from(Object.entries(entries).find(([name]) => name.endsWith('ex-libris.xhtml'))![1]).toString('utf8');
    const page = new (new JSDOM('').window.DOMParser)().parseFromString(exLibris, 'application/xhtml+xml');
    expect(page.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(page.querySelector('.owner')?.textContent).toBe('This copy belongs to Fran Reader');
    expect(page.querySelector('.gift')?.textContent).toBe('A gift from Ada Giver');
    expect(exLibris).toContain('<p class="dedication">Happy birthday<br/>with love</p>');
  });

  it('a gifted PDF opens with a dedication page', async () => {
    const master = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-sample.pdf'));
    const stamp = { fingerprint: 'fp-test', ownerName: 'Fran', purchasedAt: new Date(), orderReference: 'WWD-1' };
    const plain = await PDFDocument.load(await personalisePdf(master, stamp));
    const gifted = await PDFDocument.load(await personalisePdf(master, { ...stamp, gift: { from: 'Ada', message: 'For you.' } }));
    expect(gifted.getPageCount()).toBe(plain.getPageCount() + 1);
  });
});
