import { isDigitalFormat } from '@shared/constants';
import { TEST_ADDRESS } from '../checkout/test-support';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableOnMessage, preOrderNotice } from '@shared/schemas/pre-orders';
import { books, digitalAssets, kindleSends, mailOutbox, purchases } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { makeTestEpub } from '../copies/test-support';

const DAY = 24 * 60 * 60 * 1000;

function jsonLdBlocks(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

/** A test app of its own and its upcoming book (the first one not featured). */
async function upcomingApp(): Promise<{ t: TestApp; upcomingId: number }> {
  const t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com' } });
  const [row] = await t.database.db.select({ id: books.id }).from(books).where(eq(books.featured, false)).orderBy(books.id).limit(1);
  return { t, upcomingId: row.id };
}

describe('pre-orders of the upcoming book', () => {
  let t: TestApp;
  let upcomingId: number;
  let adminId: number;

  beforeAll(async () => {
    ({ t, upcomingId } = await upcomingApp());
    adminId = (await createUser(t.database, { role: 'admin' })).id;
  });
  afterAll(() => t.close());

  // Sessions follow the injected clock too: a fresh one after each jump.
  const setRelease = async (releaseAt: Date | null) => {
    const admin = await signedInAgent(t.app, adminId);
    const res = await admin.put(`/api/admin/books/${upcomingId}/pre-order`, {
      releaseAt: releaseAt?.toISOString() ?? null,
      prices: { hardcover: 2599, paperback: null, ebook: 1299, audiobook: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const releaseMails = (to: string) =>
    t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, 'release')));
  const buyer = async () => {
    const user = await createUser(t.database);
    return { user, agent: await signedInAgent(t.app, user.id) };
  };
  const preOrder = async (agent: Awaited<ReturnType<typeof signedInAgent>>, format: string) => {
    const res = await agent.post('/api/checkout', { bookId: upcomingId, format });
    expect(res.statusCode, res.body).toBe(200);
    const sessionId = res.json().url.split('/').pop();
    const shipping = isDigitalFormat(format) ? undefined : { shippingAddress: TEST_ADDRESS };
    expect((await agent.post(`/api/checkout/sessions/${sessionId}/pay`, shipping)).statusCode).toBe(200);
  };

  it('is not for sale without a release date; the admin sets prices and a date, then it is', async () => {
    const reader = await buyer();
    const refused = await reader.agent.post('/api/checkout', { bookId: upcomingId, format: 'ebook' });
    expect(refused.statusCode).toBe(409);
    expect((await t.app.inject({ url: '/api/store/pre-order' })).json()).toBeNull();

    const bad = await (await signedInAgent(t.app, adminId)).put(`/api/admin/books/${upcomingId}/pre-order`, { releaseAt: 'soon', prices: { hardcover: null, paperback: null, ebook: 0, audiobook: null } });
    expect(bad.statusCode).toBe(400);

    const releaseAt = new Date(t.clock.now().getTime() + 7 * DAY);
    const saved = await setRelease(releaseAt);
    expect(saved).toEqual({
      releaseAt: releaseAt.toISOString(),
      prices: { hardcover: 2599, paperback: null, ebook: 1299, audiobook: null },
      // The upcoming book has no e-book file yet: the release form says so.
      missingFiles: [{ format: 'ebook', label: 'E-Book', orders: 0 }],
    });
    const area = (await t.app.inject({ url: '/api/store/pre-order' })).json();
    expect(area).toMatchObject({ book: { id: upcomingId }, releaseAt: releaseAt.toISOString(), released: false });
    expect(area.formats.map((f: { id: string; displayPrice: string }) => [f.id, f.displayPrice])).toEqual([
      ['hardcover', '£25.99'],
      ['ebook', '£12.99'],
    ]);
    // A format without a price is not sold.
    expect((await reader.agent.post('/api/checkout', { bookId: upcomingId, format: 'audiobook' })).statusCode).toBe(409);

    const html = (await t.app.inject({ url: '/' })).body;
    const upcoming = jsonLdBlocks(html).find((b) => (b['@id'] as string).endsWith('#upcoming-book'))!;
    const offers = upcoming.offers as Array<Record<string, string>>;
    expect(offers.map((o) => [o.price, o.availability, o.availabilityStarts])).toEqual([
      ['25.99', 'https://schema.org/PreOrder', releaseAt.toISOString()],
      ['12.99', 'https://schema.org/PreOrder', releaseAt.toISOString()],
    ]);
  });

  it('closed before the date (403 with the date), open and mailed once after it; a moved date mails nobody twice', async () => {
    const first = new Date(t.clock.now().getTime() + 7 * DAY);
    await setRelease(first);
    let reader = await buyer();
    await preOrder(reader.agent, 'ebook');
    await preOrder(reader.agent, 'hardcover');

    const library = (await reader.agent.get('/api/library/books')).json();
    expect(library).toHaveLength(1);
    expect(library[0]).toMatchObject({ bookId: upcomingId, format: 'ebook', availableAt: first.toISOString() });
    const closed = await reader.agent.get(`/api/books/${upcomingId}/assets?format=ebook`);
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toBe(availableOnMessage(first));
    expect(closed.json().message).toMatch(/^Available on \d{1,2} \w+ \d{4}$/);

    // The file arrives before the release; its download still waits and spends nothing.
    const [master] = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.format, 'ebook'));
    const [asset] = await t.database.db
      .insert(digitalAssets)
      .values({ bookId: upcomingId, format: 'ebook', fileUrl: master.fileUrl, fileName: 'next.epub', contentType: master.contentType, fileSizeKb: master.fileSizeKb })
      .returning();
    const early = await reader.agent.get(`/api/digital-assets/${asset.id}/download`, { auth: 'bearer' });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe(availableOnMessage(first));
    const [spent] = await t.database.db.select().from(purchases).where(and(eq(purchases.userId, reader.user.id), eq(purchases.format, 'ebook')));
    expect(spent.downloadCount).toBe(0);

    // The date moves a day later before it comes: the old date passes without a mail.
    const moved = new Date(first.getTime() + DAY);
    await setRelease(moved);
    t.clock.set(first);
    await t.app.deps.jobs.runDue();
    expect(await releaseMails(reader.user.email)).toHaveLength(0);
    reader = { ...reader, agent: await signedInAgent(t.app, reader.user.id) };
    expect((await reader.agent.get(`/api/books/${upcomingId}/assets?format=ebook`)).statusCode).toBe(403);

    t.clock.set(moved);
    await t.app.deps.jobs.runDue();
    const mails = await releaseMails(reader.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('is out today');
    reader = { ...reader, agent: await signedInAgent(t.app, reader.user.id) };
    const open = await reader.agent.get(`/api/books/${upcomingId}/assets?format=ebook`);
    expect(open.statusCode).toBe(200);
    expect((await reader.agent.get('/api/library/books')).json()[0].availableAt).toBeNull();

    const html = (await t.app.inject({ url: '/' })).body;
    const offers = jsonLdBlocks(html).find((b) => (b['@id'] as string).endsWith('#upcoming-book'))!.offers as Array<Record<string, string>>;
    expect(offers.every((o) => o.availability === 'https://schema.org/InStock' && o.availabilityStarts === undefined)).toBe(true);

    // Moving the date again (even back into the future and past it once more) mails nobody twice.
    const again = new Date(moved.getTime() + DAY);
    await setRelease(again);
    t.clock.set(again);
    await t.app.deps.jobs.runDue();
    await t.app.deps.jobs.runDue();
    expect(await releaseMails(reader.user.email)).toHaveLength(1);
  });
});

describe('one release rule for every way out of the library (issue 27 point 2)', () => {
  let t: TestApp;
  let upcomingId: number;

  beforeAll(async () => ({ t, upcomingId } = await upcomingApp()));
  afterAll(() => t.close());

  it('two days before the release, Send to Kindle is refused like the download, the content and positions; a gift claim says when', async () => {
    const admin = await signedInAgent(t.app, (await createUser(t.database, { role: 'admin' })).id);
    const releaseAt = new Date(t.clock.now().getTime() + 2 * DAY);
    const saved = await admin.put(`/api/admin/books/${upcomingId}/pre-order`, {
      releaseAt: releaseAt.toISOString(),
      prices: { hardcover: null, paperback: null, ebook: 1299, audiobook: null },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The e-book file is already uploaded: only the release rule stands between the reader and it.
    const [master] = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.format, 'ebook'));
    await t.database.db
      .insert(digitalAssets)
      .values({ bookId: upcomingId, format: 'ebook', fileUrl: master.fileUrl, fileName: 'next.epub', contentType: master.contentType, fileSizeKb: master.fileSizeKb });

    const reader = await createUser(t.database);
    const agent = await signedInAgent(t.app, reader.id);
    const checkout = await agent.post('/api/checkout', { bookId: upcomingId, format: 'ebook' });
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect((await agent.post(`/api/checkout/sessions/${checkout.json().url.split('/').pop()}/pay`)).statusCode).toBe(200);

    const expected = availableOnMessage(releaseAt);
    const kindle = await agent.post(`/api/library/${upcomingId}/ebook/send-to-kindle`, { address: 'early_reader@kindle.com' });
    expect(kindle.statusCode, kindle.body).toBe(403);
    expect(kindle.json()).toMatchObject({ code: 'NOT_RELEASED', message: expected });
    expect(await t.database.db.select().from(kindleSends).where(eq(kindleSends.userId, reader.id))).toHaveLength(0);
    expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'early_reader@kindle.com'))).toHaveLength(0);

    for (const url of [`/api/books/${upcomingId}/assets?format=ebook`, `/api/library/${upcomingId}/ebook/content`, `/api/library/${upcomingId}/ebook/position`]) {
      const res = await agent.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message, url).toBe(expected);
    }

    // A gift of the pre-order is claimed into the library, and the answer says when it opens.
    const giver = await signedInAgent(t.app, (await createUser(t.database, { displayName: 'Giver' })).id);
    const giftCheckout = await giver.post('/api/checkout', { bookId: upcomingId, format: 'ebook', gift: { recipientName: 'Rae', recipientEmail: `rae-${Date.now()}@example.org` } });
    expect(giftCheckout.statusCode, giftCheckout.body).toBe(200);
    expect((await giver.post(`/api/checkout/sessions/${giftCheckout.json().url.split('/').pop()}/pay`)).statusCode).toBe(200);
    await t.app.deps.jobs.runDue();
    const [giftMail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'gift'));
    const token = /\/gift\/([\w-]+)/.exec(giftMail.text)![1];
    const recipient = await signedInAgent(t.app, (await createUser(t.database)).id);
    const claim = await recipient.post(`/api/gifts/${token}/claim`);
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json().message).toBe(`Your gift is in your library. ${preOrderNotice(releaseAt)}.`);
    expect(claim.json().message).toMatch(/Pre-order, available on \d{1,2} \w+ \d{4}\.$/);

    // On the day, the same rule opens every way at once.
    t.clock.set(releaseAt);
    const later = await signedInAgent(t.app, reader.id);
    const sent = await later.post(`/api/library/${upcomingId}/ebook/send-to-kindle`, { address: 'early_reader@kindle.com' });
    expect(sent.statusCode, sent.body).toBe(202);
  });
});

describe('a release with a pre-ordered format that has no file (issue 25 point 5)', () => {
  let t: TestApp;
  let upcomingId: number;

  beforeAll(async () => ({ t, upcomingId } = await upcomingApp()));
  afterAll(() => t.close());

  it('the release form lists every pre-ordered format without a file; buyers are told the truth, then mailed when it is uploaded', async () => {
    const admin = await signedInAgent(t.app, (await createUser(t.database, { role: 'admin' })).id);
    const releaseAt = new Date(t.clock.now().getTime() + DAY);
    const saved = await admin.put(`/api/admin/books/${upcomingId}/pre-order`, {
      releaseAt: releaseAt.toISOString(),
      prices: { hardcover: 2599, paperback: null, ebook: 1299, audiobook: 1599 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Neither digital format has a file yet; the hardcover needs none.
    expect(saved.json().missingFiles).toEqual([
      { format: 'ebook', label: 'E-Book', orders: 0 },
      { format: 'audiobook', label: 'Audiobook', orders: 0 },
    ]);

    const reader = await createUser(t.database, { displayName: 'Early Reader' });
    const agent = await signedInAgent(t.app, reader.id);
    const notice = preOrderNotice(releaseAt);
    for (const format of ['ebook', 'audiobook', 'hardcover']) {
      const checkout = await agent.post('/api/checkout', { bookId: upcomingId, format });
      expect(checkout.statusCode, checkout.body).toBe(200);
      const sessionId = checkout.json().url.split('/').pop();
      // The payment page knows it sells a pre-order, before and after paying.
      expect((await agent.get(`/api/checkout/sessions/${sessionId}`)).json().availableAt).toBe(releaseAt.toISOString());
      const paid = await agent.post(`/api/checkout/sessions/${sessionId}/pay`, format === 'hardcover' ? { shippingAddress: TEST_ADDRESS } : undefined);
      expect(paid.statusCode, paid.body).toBe(200);
      expect((await agent.get(`/api/checkout/sessions/${sessionId}`)).json()).toMatchObject({ status: 'completed', availableAt: releaseAt.toISOString() });
    }
    // Every receipt says it is a pre-order and when it comes; none says the file is ready.
    const receipts = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, reader.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipts).toHaveLength(3);
    for (const receipt of receipts) {
      expect(receipt.text).toContain(notice);
      expect(receipt.text).not.toContain('is waiting in your library');
    }
    expect(receipts.find((r) => r.subject.includes('(E-Book)'))!.text).toContain('will be in your library on');
    expect(receipts.find((r) => r.subject.includes('(Hardcover)'))!.text).toContain('will be shipped when the book comes out on');
    // "Your Orders" carries the date on every order, the hardcover's included.
    const orders = (await agent.get('/api/library/orders')).json();
    expect(orders.map((o: { format: string; availableAt: string }) => [o.format, o.availableAt]).sort()).toEqual([
      ['audiobook', releaseAt.toISOString()],
      ['ebook', releaseAt.toISOString()],
      ['hardcover', releaseAt.toISOString()],
    ]);
    // The audiobook arrives before the release; the e-book does not.
    const [master] = await t.database.db.select().from(digitalAssets).where(eq(digitalAssets.format, 'audiobook'));
    await t.database.db
      .insert(digitalAssets)
      .values({ bookId: upcomingId, format: 'audiobook', fileUrl: master.fileUrl, fileName: 'next.m4a', contentType: master.contentType, fileSizeKb: master.fileSizeKb });
    const settings = (await admin.get(`/api/admin/books/${upcomingId}/pre-order`)).json();
    expect(settings.missingFiles).toEqual([{ format: 'ebook', label: 'E-Book', orders: 1 }]);

    t.clock.set(releaseAt);
    await t.app.deps.jobs.runDue();
    const [mail] = await releaseMailsTo(t, reader.email);
    expect(mail.subject).toContain('is out today');
    expect(mail.text).toContain('Your Audiobook is now in your library, ready to download.');
    expect(mail.text).toContain('Your pre-ordered Hardcover is being prepared for shipping.');
    expect(mail.text).toContain('Your E-Book is not ready yet: we will email you again the moment it is in your library.');
    expect(mail.text).not.toMatch(/E-Book[^\n]*ready to download/);
    // Out now: orders are no longer pre-orders, and the library row without a file says so instead of offering a download.
    const out = await signedInAgent(t.app, reader.id);
    expect((await out.get('/api/library/orders')).json().every((o: { availableAt: string | null }) => o.availableAt === null)).toBe(true);
    const rows = (await out.get('/api/library/books')).json() as Array<{ format: string; fileReady: boolean; availableAt: string | null }>;
    expect(rows.map((r) => [r.format, r.fileReady, r.availableAt]).sort()).toEqual([
      ['audiobook', true, null],
      ['ebook', false, null],
    ]);

    // The author uploads the e-book: its buyer hears once, and only then.
    const fresh = await signedInAgent(t.app, (await createUser(t.database, { role: 'admin' })).id);
    const boundary = '----releaseTruthBoundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="next.epub"\r\nContent-Type: application/epub+zip\r\n\r\n`);
    const payload = Buffer.concat([head, makeTestEpub({ body: 'chapter one' }), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const uploaded = await fresh.request({ method: 'PUT', url: `/api/admin/books/${upcomingId}/files/ebook`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const mails = await releaseMailsTo(t, reader.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toMatch(/^Your E-Book of .+ is ready to download$/);
    expect(mails[1].text).toContain('now in your library, ready to download');
    expect(((await out.get('/api/library/books')).json() as Array<{ format: string; fileReady: boolean }>).find((r) => r.format === 'ebook')!.fileReady).toBe(true);
    // A replacement of the file mails nobody again.
    const again = await fresh.request({ method: 'PUT', url: `/api/admin/books/${upcomingId}/files/ebook`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(again.statusCode).toBe(200);
    expect(await releaseMailsTo(t, reader.email)).toHaveLength(2);
    expect((await fresh.get(`/api/admin/books/${upcomingId}/pre-order`)).json().missingFiles).toEqual([]);
  });
});

const releaseMailsTo = (t: TestApp, to: string) =>
  t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, 'release'))).orderBy(mailOutbox.id);

describe('pre-order release and the public page cache', () => {
  let t: TestApp;
  // A cache that outlives the wait for the release: only the release job's clearing can flip the offer.
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example.com', SITE_CACHE_MS: '3600000' } });
  });
  afterAll(() => t.close());

  it('the cached home page says PreOrder until the release run clears the cache, then InStock', async () => {
    const [row] = await t.database.db.select({ id: books.id }).from(books).where(eq(books.featured, false)).orderBy(books.id).limit(1);
    const admin = await signedInAgent(t.app, (await createUser(t.database, { role: 'admin' })).id);
    // Within the cache's hour, so the page cached before the release would still be served after it.
    const releaseAt = new Date(t.clock.now().getTime() + 30 * 60_000);
    const saved = await admin.put(`/api/admin/books/${row.id}/pre-order`, {
      releaseAt: releaseAt.toISOString(),
      prices: { hardcover: null, paperback: null, ebook: 1299, audiobook: null },
    });
    expect(saved.statusCode).toBe(200);
    const availability = async () => {
      const html = (await t.app.inject({ url: '/' })).body;
      const book = jsonLdBlocks(html).find((b) => (b['@id'] as string).endsWith('#upcoming-book'))!;
      return (book.offers as Array<Record<string, string>>)[0].availability;
    };
    expect(await availability()).toBe('https://schema.org/PreOrder');
    t.clock.set(releaseAt);
    // Still the cached page: nothing has told the cache yet.
    expect(await availability()).toBe('https://schema.org/PreOrder');
    await t.app.deps.jobs.runDue();
    expect(await availability()).toBe('https://schema.org/InStock');
  });
});
