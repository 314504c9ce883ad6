import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_BOOK_MESSAGES } from '@shared/schemas/free-books';
import { freeBookClaims, newsletterSubscribers, purchases, users } from '../../db/schema';
import { escapeMarkup } from '../../platform/http/markup';
import { TestAgent, type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent, insertPurchase } from '../admin/test-fixtures';
import { outboxFor } from '../auth/test-support';
import { featuredBookId } from '../checkout/test-support';
import { setAsksToConfirm } from '../newsletter/service';

let ipCounter = 0;
const freshIp = () => `10.31.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
let addressCounter = 0;
const freshEmail = (name = 'visitor') => `${name}${++addressCounter}@example.com`;

/** The confirmation page's address and token, read from the mail. */
function confirmLinkOf(text: string): { url: URL; token: string } {
  const match = text.match(/https?:\/\/\S+\/free\/[a-z0-9-]+\/confirm\?\S+/);
  if (!match) throw new Error(`no confirmation link in mail:\n${text}`);
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token') ?? '' };
}

describe('a free book for subscribers (decision 0097)', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;
  let slugCounter = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://book.example.com' } });
    bookId = await featuredBookId(t.app);
    admin = (await adminAgent(t)).agent;
  });
  afterAll(() => t.close());

  const gift = (fields: Record<string, unknown> = {}) => ({
    bookId,
    format: 'ebook',
    slug: `the-first-case-${++slugCounter}`,
    pitch: 'A short prequel: the night the Calloway brothers first lied for each other.',
    active: true,
    ...fields,
  });
  async function offer(fields: Record<string, unknown> = {}) {
    const res = await admin.post('/api/admin/free-books', gift(fields));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; slug: string };
  }
  const claim = (slug: string, body: Record<string, unknown>, ip = freshIp()) =>
    new TestAgent(t.app).request({ method: 'POST', url: `/api/free-books/${slug}/claim`, payload: body, remoteAddress: ip });
  const confirm = (token: string, agent = new TestAgent(t.app)) =>
    agent.request({ method: 'POST', url: '/api/free-books/confirm', payload: { token }, remoteAddress: freshIp() });
  async function mailedLink(email: string, count = 1) {
    const mails = await outboxFor(t.database.db, email, 'free-book-confirm');
    expect(mails).toHaveLength(count);
    return { mail: mails[0], ...confirmLinkOf(mails[0].text) };
  }
  const claimsOf = (email: string) => t.database.db.select().from(freeBookClaims).where(eq(freeBookClaims.email, email));
  const accountOf = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0];
  const subscriberOf = async (email: string) =>
    (await t.database.db.select().from(newsletterSubscribers).where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`))[0];
  const freeRowsOf = (userId: number) =>
    t.database.db.select().from(purchases).where(and(eq(purchases.userId, userId), eq(purchases.kind, 'free')));

  it('the admin offers, lists, changes and removes a free book; readers and visitors cannot', async () => {
    const created = await offer({ slug: 'admin-crud' });
    expect(created).toMatchObject({ slug: 'admin-crud', format: 'ebook', formatLabel: 'E-Book', active: true, totals: { requested: 0, claimed: 0, boughtLater: 0 }, sources: [] });
    expect((await admin.get('/api/admin/free-books')).json().map((g: { id: number }) => g.id)).toContain(created.id);

    const changed = await admin.put(`/api/admin/free-books/${created.id}`, gift({ slug: 'admin-crud-2', format: 'audiobook', active: false }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ slug: 'admin-crud-2', format: 'audiobook', formatLabel: 'Audiobook', active: false });
    expect((await admin.put('/api/admin/free-books/999999', gift())).statusCode).toBe(404);

    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await reader.get('/api/admin/free-books')).statusCode).toBe(403);
    expect((await reader.post('/api/admin/free-books', gift())).statusCode).toBe(403);
    expect((await new TestAgent(t.app).get('/api/admin/free-books')).statusCode).toBe(401);

    const removed = await admin.delete(`/api/admin/free-books/${created.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: 'Free book removed' });
    expect((await admin.delete(`/api/admin/free-books/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses a bad offer with the field message and stores nothing', async () => {
    const taken = await offer({ slug: 'taken-address' });
    const before = (await admin.get('/api/admin/free-books')).json().length;
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [gift({ slug: 'Not A Slug' }), 400, 'slug', FREE_BOOK_MESSAGES.slug],
      [gift({ slug: '' }), 400, 'slug', FREE_BOOK_MESSAGES.slug],
      [gift({ pitch: '  ' }), 400, 'pitch', FREE_BOOK_MESSAGES.pitch],
      [gift({ pitch: 'x'.repeat(1001) }), 400, 'pitch', FREE_BOOK_MESSAGES.pitch],
      [gift({ format: 'hardcover' }), 400, 'format', FREE_BOOK_MESSAGES.format],
      [gift({ bookId: 'one' }), 400, 'bookId', FREE_BOOK_MESSAGES.bookId],
      [gift({ bookId: 999999 }), 400, 'bookId', FREE_BOOK_MESSAGES.bookNotFound],
      [gift({ slug: 'taken-address' }), 409, 'slug', FREE_BOOK_MESSAGES.slugTaken],
    ];
    for (const [body, status, field, message] of cases) {
      const res = await admin.post('/api/admin/free-books', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().fields[field]).toBe(message);
    }
    const renamed = await admin.put(`/api/admin/free-books/${taken.id}`, gift({ slug: 'taken-address' }));
    expect(renamed.statusCode).toBe(200);
    const other = await offer();
    const clash = await admin.put(`/api/admin/free-books/${other.id}`, gift({ slug: 'taken-address' }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(FREE_BOOK_MESSAGES.slugTaken);
    expect((await admin.get('/api/admin/free-books')).json().length).toBe(before + 1);
  });

  it('shows the landing page of an active offer only', async () => {
    const { id, slug } = await offer();
    const page = await new TestAgent(t.app).get(`/api/free-books/${slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.json()).toMatchObject({
      slug,
      format: 'ebook',
      formatLabel: 'E-Book',
      pitch: 'A short prequel: the night the Calloway brothers first lied for each other.',
      book: { id: bookId, title: expect.any(String), coverImage: expect.any(String), tagline: expect.any(String) },
    });
    // The client route is a page of the app, not a 404, with its own title for crawlers and link previews.
    const html = await new TestAgent(t.app).get(`/free/${slug}`);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain(`<title>${escapeMarkup(`Free: ${page.json().book.title} | What We Owe the Dead`)}</title>`);
    expect(html.body).toContain(`<link rel="canonical" href="${t.app.deps.config.publicUrl.origin}/free/${slug}" />`);

    await admin.put(`/api/admin/free-books/${id}`, gift({ slug, active: false }));
    const off = await new TestAgent(t.app).get(`/api/free-books/${slug}`);
    expect(off.statusCode).toBe(404);
    expect(off.json().message).toBe(FREE_BOOK_MESSAGES.notOffered);
    expect((await new TestAgent(t.app).get(`/free/${slug}`)).statusCode).toBe(404);
    const refused = await claim(slug, { email: freshEmail() });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(FREE_BOOK_MESSAGES.notOffered);
    expect((await new TestAgent(t.app).get('/api/free-books/never-offered')).statusCode).toBe(404);
  });

  it('answers a known and an unknown address alike, and mails each its confirmation link', async () => {
    const { slug } = await offer();
    const known = await createUser(t.database);
    const unknownEmail = freshEmail('stranger');
    const a = await claim(slug, { email: known.email });
    const b = await claim(slug, { email: unknownEmail, source: 'BookBub' });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual({ success: true, message: FREE_BOOK_MESSAGES.sent });
    expect(b.json()).toEqual(a.json());
    expect(a.json().message).toBe('Check your email: we have sent you a link to confirm your address. Press it within 24 hours to get your book.');

    for (const email of [known.email, unknownEmail]) {
      const { url, token, mail } = await mailedLink(email);
      expect(url.origin + url.pathname).toBe(`https://book.example.com/free/${slug}/confirm`);
      expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
      // Both are new to the list and the newsletter asks to confirm: the mail is its confirmation.
      expect(mail.subject).toMatch(/^Confirm your subscription and get /);
      expect(mail.text).toContain('The link works once, within 24 hours.');
      const [row] = await claimsOf(email);
      expect(row.tokenHash).not.toContain(token);
      expect(row.confirmedAt).toBeNull();
    }
    expect((await claimsOf(unknownEmail))[0].source).toBe('bookbub');
    // Asking creates no account and puts nobody on the list.
    expect(await accountOf(unknownEmail)).toBeUndefined();
    expect(await subscriberOf(unknownEmail)).toBeUndefined();
  });

  it('refuses a bad address or source with the form message and changes nothing', async () => {
    const { slug } = await offer();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ email: 'not-an-address' }, 'email', 'Please enter a valid email address'],
      [{ email: '' }, 'email', 'Email is required'],
      [{ email: 'a@example.com,b@example.com' }, 'email', 'Please enter a valid email address'],
      [{ email: 'bad-source@example.com', source: 'spring sale!' }, 'source', FREE_BOOK_MESSAGES.source],
    ];
    for (const [body, field, message] of cases) {
      const res = await claim(slug, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    expect(await claimsOf('bad-source@example.com')).toHaveLength(0);
    expect(await outboxFor(t.database.db, 'bad-source@example.com')).toHaveLength(0);
  });

  it('opening the link changes nothing; the button adds the book, subscribes, makes the account and signs in, once', async () => {
    const { slug } = await offer({ slug: 'once-only' });
    const email = freshEmail('new.reader');
    expect((await claim(slug, { email, source: 'instagram' })).statusCode).toBe(200);
    const { url, token } = await mailedLink(email);

    // A mail scanner opens the page (and a HEAD): nothing is confirmed, made or signed in.
    const scanner = new TestAgent(t.app);
    const page = await scanner.get(url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    await scanner.request({ method: 'HEAD', url: url.pathname + url.search });
    expect((await scanner.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
    expect((await claimsOf(email))[0].confirmedAt).toBeNull();
    expect(await accountOf(email)).toBeUndefined();
    expect(await subscriberOf(email)).toBeUndefined();

    const reader = new TestAgent(t.app);
    const done = await confirm(token, reader);
    expect(done.statusCode, done.body).toBe(200);
    const answer = done.json();
    expect(answer).toMatchObject({ success: true, message: 'Your free book is in your library. Welcome to the Thriller Circle!', format: 'ebook', formatLabel: 'E-Book', book: { id: bookId } });
    const account = await accountOf(email);
    expect(account.passwordHash).toBeNull();
    expect(account.isSubscribed).toBe(true);
    expect(answer.user).toEqual({ id: account.id, role: 'user' });
    expect(await subscriberOf(email)).toMatchObject({ state: 'confirmed', source: 'free-book', userId: account.id });

    // Signed in as by an emailed link: the cookie alone works, and the library shows the book.
    expect((await reader.get('/api/users/check-auth', { auth: 'cookie' })).json()).toEqual({ isAuthenticated: true, user: { id: account.id, role: 'user' } });
    reader.bearer = answer.token;
    const library = (await reader.get('/api/library/books')).json() as Array<{ bookId: number; format: string; maxDownloads: number }>;
    expect(library.filter((i) => i.bookId === bookId).map((i) => i.format)).toContain('ebook');
    expect(await freeRowsOf(account.id)).toHaveLength(1);

    // Used once: a second press, from anyone, is refused and changes nothing.
    const again = await confirm(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(FREE_BOOK_MESSAGES.confirmUsed);
    const wrong = await confirm('not-a-real-token');
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe(FREE_BOOK_MESSAGES.confirmUnknown);
    const empty = await confirm('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.token).toBe(FREE_BOOK_MESSAGES.confirmIncomplete);
    expect(await freeRowsOf(account.id)).toHaveLength(1);
  });

  it('expires 24 hours after it was sent, and an expired link changes nothing', async () => {
    const { slug } = await offer();
    const email = freshEmail();
    await claim(slug, { email });
    const { token } = await mailedLink(email);
    t.clock.advance(24 * 60 * 60_000);
    const late = await confirm(token);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(FREE_BOOK_MESSAGES.confirmExpired);
    expect((await claimsOf(email))[0].confirmedAt).toBeNull();
    expect(await accountOf(email)).toBeUndefined();

    // Asking again mails a fresh link that works just before its own 24 hours end.
    await claim(slug, { email });
    const fresh = await mailedLink(email, 2);
    t.clock.advance(24 * 60 * 60_000 - 1000);
    expect((await confirm(fresh.token)).statusCode).toBe(200);
  });

  it('puts the book in a library once, and leaves a bought copy as it is', async () => {
    const { slug } = await offer();
    const reader = await createUser(t.database);
    await claim(slug, { email: reader.email });
    await claim(slug, { email: reader.email });
    const mails = await outboxFor(t.database.db, reader.email, 'free-book-confirm');
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      const res = await confirm(confirmLinkOf(mail.text).token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.id).toBe(reader.id);
    }
    expect(await freeRowsOf(reader.id)).toHaveLength(1);
    // The existing account kept its password.
    expect((await accountOf(reader.email)).passwordHash).not.toBeNull();

    const buyer = await createUser(t.database);
    await insertPurchase(t, { userId: buyer.id, bookId, format: 'ebook', price: 999 });
    await claim(slug, { email: buyer.email });
    expect((await confirm((await mailedLink(buyer.email)).token)).statusCode).toBe(200);
    expect(await freeRowsOf(buyer.id)).toHaveLength(0);
  });

  it('refuses an address that unsubscribed, complained or bounced, and changes nothing', async () => {
    const { slug } = await offer();
    for (const state of ['unsubscribed', 'complained', 'bounced'] as const) {
      const email = freshEmail(state);
      await t.database.db.insert(newsletterSubscribers).values({ email, state, source: 'home', unsubscribedAt: state === 'unsubscribed' ? new Date() : null });
      const res = await claim(slug, { email: email.toUpperCase() });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'This address has left the Thriller Circle or cannot receive our emails, so it cannot claim the free book. Please use another address.',
      );
      expect(await claimsOf(email.toUpperCase())).toHaveLength(0);
      expect(await outboxFor(t.database.db, email)).toHaveLength(0);
      expect((await subscriberOf(email)).state).toBe(state);
    }

    // Left between asking and confirming: the confirmation is refused too, and the link stays unused.
    const email = freshEmail('leaver');
    await claim(slug, { email });
    const { token } = await mailedLink(email);
    await t.database.db.insert(newsletterSubscribers).values({ email, state: 'unsubscribed', source: 'home', unsubscribedAt: new Date() });
    const res = await confirm(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(FREE_BOOK_MESSAGES.suppressed);
    expect((await claimsOf(email))[0].confirmedAt).toBeNull();
    expect(await accountOf(email)).toBeUndefined();
    expect((await subscriberOf(email)).state).toBe('unsubscribed');
  });

  it('sends its own mail when the newsletter does not ask to confirm, or the address already confirmed', async () => {
    const { slug } = await offer();
    const subscriber = freshEmail('subscriber');
    await t.database.db.insert(newsletterSubscribers).values({ email: subscriber, state: 'confirmed', source: 'home', confirmedAt: new Date() });
    await claim(slug, { email: subscriber });
    expect((await mailedLink(subscriber)).mail.subject).toMatch(/^Your free copy of .+: confirm your email$/);

    await setAsksToConfirm(t.database.db, false);
    try {
      const email = freshEmail();
      await claim(slug, { email });
      const { mail, token } = await mailedLink(email);
      expect(mail.subject).toMatch(/^Your free copy of .+: confirm your email$/);
      expect(mail.text).toContain('you join the Thriller Circle');
      // Asking still stores nobody on the list: the address has not proved itself yet.
      expect(await subscriberOf(email)).toBeUndefined();
      expect((await confirm(token)).statusCode).toBe(200);
      expect((await subscriberOf(email)).state).toBe('confirmed');
    } finally {
      await setAsksToConfirm(t.database.db, true);
    }
  });

  it('confirms a pending newsletter sign-up, and refuses a claim of an offer switched off since', async () => {
    const { id, slug } = await offer();
    const email = freshEmail('pending');
    expect((await new TestAgent(t.app).request({ method: 'POST', url: '/api/subscribe', payload: { email, name: '' }, remoteAddress: freshIp() })).statusCode).toBe(200);
    expect((await subscriberOf(email)).state).toBe('unconfirmed');
    await claim(slug, { email });
    const { token } = await mailedLink(email);

    await admin.put(`/api/admin/free-books/${id}`, gift({ slug, active: false }));
    const off = await confirm(token);
    expect(off.statusCode).toBe(404);
    expect(off.json().message).toBe(FREE_BOOK_MESSAGES.notOffered);
    expect((await claimsOf(email))[0].confirmedAt).toBeNull();

    await admin.put(`/api/admin/free-books/${id}`, gift({ slug, active: true }));
    expect((await confirm(token)).statusCode).toBe(200);
    // The sign-up keeps its source; it is confirmed and its own link is spent.
    expect(await subscriberOf(email)).toMatchObject({ state: 'confirmed', source: 'home', confirmTokenHash: null });
  });

  it('limits requests per address', async () => {
    const { slug } = await offer();
    const email = freshEmail('flooded');
    for (let i = 0; i < 3; i += 1) expect((await claim(slug, { email })).statusCode).toBe(200);
    const refused = await claim(slug, { email });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many requests for this address. Please wait 60 minutes and try again.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await claimsOf(email)).toHaveLength(3);
  });

  it('tells the admin the claims per source and how many claimers bought later', async () => {
    const { id, slug } = await offer();
    const confirmFor = async (email: string, source?: string) => {
      await claim(slug, source ? { email, source } : { email });
      const mails = await outboxFor(t.database.db, email, 'free-book-confirm');
      const res = await confirm(confirmLinkOf(mails[0].text).token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().user.id as number;
    };
    const buyerId = await confirmFor(freshEmail('buyer'), 'bookbub');
    await confirmFor(freshEmail('reader'), 'bookbub');
    const earlyBuyer = await createUser(t.database);
    // Paid before claiming: not a sale the free book brought.
    await insertPurchase(t, { userId: earlyBuyer.id, bookId, format: 'hardcover', price: 2499, purchaseDate: new Date(t.clock.now().getTime() - 60_000) });
    await confirmFor(earlyBuyer.email);
    await claim(slug, { email: freshEmail('never-confirmed'), source: 'instagram' });
    t.clock.advance(60_000);
    await insertPurchase(t, { userId: buyerId, bookId, format: 'audiobook', price: 1499, purchaseDate: t.clock.now() });

    const listed = (await admin.get('/api/admin/free-books')).json().find((g: { id: number }) => g.id === id);
    expect(listed.totals).toEqual({ requested: 4, claimed: 3, boughtLater: 1 });
    expect(listed.sources).toEqual([
      { source: 'bookbub', requested: 2, claimed: 2, boughtLater: 1 },
      { source: null, requested: 1, claimed: 1, boughtLater: 0 },
      { source: 'instagram', requested: 1, claimed: 0, boughtLater: 0 },
    ]);

    // Removing the offer keeps the claimed copies in their readers' libraries.
    expect((await admin.delete(`/api/admin/free-books/${id}`)).statusCode).toBe(200);
    expect(await freeRowsOf(buyerId)).toHaveLength(1);
  });
});
