import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { BROADCAST_MESSAGES } from '@shared/schemas/broadcasts';
import { broadcastRecipients, mailOutbox, newsletterSubscribers } from '../../db/schema';
import { smtpTransport } from '../../platform/mail/mail';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent, insertBook, insertPurchase } from '../admin/test-fixtures';
import { clickUrl } from './broadcast-links';
import { broadcastMail } from './broadcast-mail';
import { headerOf, startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';

const draft = {
  subject: 'News from the Thriller Circle',
  previewText: 'A first look at chapter one',
  body: '<p>Dear reader,</p><p>Read <a href="/blog/first-look">the first look</a> now.</p><script>alert(1)</script>',
  audience: { kind: 'all' },
};

describe('broadcasts to the confirmed list (decision 0077)', () => {
  let t: TestApp;
  let agent: TestAgent;
  let adminEmail: string;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await startSmtpCapture({ refuse: (address) => address.startsWith('gone') });
    t = await createTestApp({ seed: false, mailTransport: smtpTransport(smtp.url), env: { PUBLIC_URL: 'https://www.example.com' } });
    const signedIn = await adminAgent(t);
    agent = signedIn.agent;
    adminEmail = signedIn.admin.email;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const db = () => t.database.db;
  const subscriber = async (email: string, state = 'confirmed', userId: number | null = null) => {
    await db().insert(newsletterSubscribers).values({
      email,
      state: state as 'confirmed',
      source: 'import',
      userId,
      unsubscribedAt: state === 'unsubscribed' ? t.clock.now() : null,
    });
  };
  const stateOf = async (email: string) =>
    (await db().select().from(newsletterSubscribers).where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`))[0]?.state;
  /** Runs the send job and empties the outbox into the capture server. */
  const deliver = async () => {
    await t.app.deps.jobs.runDue(50);
    while ((await t.app.deps.mailer.dispatchDue(100)) > 0);
  };
  const received = (subject: string) => smtp.inbox.filter((m) => headerOf(m, 'Subject') === subject);
  const createAndSend = async (subject: string, audience: object = { kind: 'all' }) => {
    const created = await agent.post('/api/admin/broadcasts', { ...draft, subject, audience });
    expect(created.statusCode).toBe(201);
    const sent = await agent.post(`/api/admin/broadcasts/${created.json().id}/send`, {});
    expect(sent.statusCode).toBe(200);
    await deliver();
    return created.json().id as number;
  };

  it('refuses what is not admin, and every field with its own message; nothing is stored', async () => {
    const reader = await createUser(t.database);
    const readerAgent = await signedInAgent(t.app, reader.id);
    expect((await readerAgent.get('/api/admin/broadcasts')).statusCode).toBe(403);
    expect((await readerAgent.post('/api/admin/broadcasts', draft)).statusCode).toBe(403);

    const cases: Array<[object, string]> = [
      [{ ...draft, subject: '  ' }, BROADCAST_MESSAGES.subject],
      [{ ...draft, subject: 'x'.repeat(201) }, BROADCAST_MESSAGES.subjectLong],
      [{ ...draft, previewText: 'y'.repeat(201) }, BROADCAST_MESSAGES.previewLong],
      [{ ...draft, body: '' }, BROADCAST_MESSAGES.body],
      [{ ...draft, body: '<script>only</script>' }, BROADCAST_MESSAGES.body],
      [{ ...draft, audience: { kind: 'everyone' } }, BROADCAST_MESSAGES.audience],
      [{ ...draft, audience: { kind: 'owners', format: 'ebook' } }, BROADCAST_MESSAGES.book],
      [{ ...draft, audience: { kind: 'owners', bookId: 1, format: 'scroll' } }, BROADCAST_MESSAGES.format],
      [{ ...draft, audience: { kind: 'pre-order', bookId: 999999 } }, BROADCAST_MESSAGES.bookMissing],
      [{ ...draft, postId: 999999 }, BROADCAST_MESSAGES.post],
    ];
    for (const [body, message] of cases) {
      const res = await agent.post('/api/admin/broadcasts', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect(await agent.get('/api/admin/broadcasts').then((r) => r.json())).toEqual([]);
    expect((await agent.get('/api/admin/broadcasts/999999')).json()).toMatchObject({ message: BROADCAST_MESSAGES.notFound });
    expect((await agent.get('/api/admin/broadcasts/abc')).statusCode).toBe(400);
  });

  it('creates, reads and edits a draft: the body is cleaned like a post, the audience counted before sending', async () => {
    await subscriber('draft.reader@example.com');
    const created = await agent.post('/api/admin/broadcasts', draft);
    expect(created.statusCode).toBe(201);
    const b = created.json();
    expect(b).toMatchObject({ subject: draft.subject, previewText: draft.previewText, status: 'draft', sendAt: null, audience: { kind: 'all' } });
    expect(b.body).not.toContain('<script');
    expect(b.audienceSize).toBeGreaterThanOrEqual(1);
    expect(b.counts).toEqual({ recipients: 0, sent: 0, waiting: 0, failed: 0, bounced: 0, suppressed: 0, unsubscribed: 0 });

    const edited = await agent.put(`/api/admin/broadcasts/${b.id}`, { ...draft, subject: 'Edited subject' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().subject).toBe('Edited subject');
    expect((await agent.get(`/api/admin/broadcasts/${b.id}`)).json().subject).toBe('Edited subject');
    const bad = await agent.put(`/api/admin/broadcasts/${b.id}`, { ...draft, subject: '' });
    expect(bad.statusCode).toBe(400);
    expect((await agent.get(`/api/admin/broadcasts/${b.id}`)).json().subject).toBe('Edited subject');
    expect((await agent.put('/api/admin/broadcasts/999999', draft)).statusCode).toBe(404);
    const list = (await agent.get('/api/admin/broadcasts')).json();
    expect(list.map((x: { id: number }) => x.id)).toContain(b.id);
  });

  it('counts each audience: all, owners of a format, pre-order buyers, and those who bought nothing', async () => {
    const book = await insertBook(t, { releaseAt: new Date('2027-03-01T00:00:00Z') });
    const other = await insertBook(t);
    const mk = async (name: string, state = 'confirmed') => {
      const user = await createUser(t.database, { email: `${name}@segments.example.com` });
      await subscriber(user.email, state, user.id);
      return user;
    };
    const ebookOwner = await mk('ebook-owner');
    await insertPurchase(t, { userId: ebookOwner.id, bookId: other.id, format: 'ebook', price: 999 });
    const preOrderer = await mk('pre-orderer');
    await insertPurchase(t, { userId: preOrderer.id, bookId: book.id, format: 'ebook', price: 999, purchaseDate: new Date('2026-11-01T00:00:00Z') });
    const refunded = await mk('refunded');
    await insertPurchase(t, { userId: refunded.id, bookId: other.id, format: 'ebook', price: 999, status: 'refunded' });
    const leftOwner = await mk('left-owner', 'unsubscribed');
    await insertPurchase(t, { userId: leftOwner.id, bookId: other.id, format: 'ebook', price: 999 });
    // Subscribed with the address of an account that bought, but not signed in: still that reader.
    const byAddress = await createUser(t.database, { email: 'by-address@segments.example.com' });
    await insertPurchase(t, { userId: byAddress.id, bookId: other.id, format: 'paperback', price: 1999, status: 'shipped' });
    await subscriber('BY-ADDRESS@segments.example.com');
    await subscriber('nothing@segments.example.com');
    await subscriber('unconfirmed@segments.example.com', 'unconfirmed');

    const size = async (audience: object) => {
      const res = await agent.post('/api/admin/broadcasts/audience-size', { audience });
      expect(res.statusCode).toBe(200);
      return res.json().audienceSize as number;
    };
    const confirmedTotal = Number(
      (await db().select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers).where(eq(newsletterSubscribers.state, 'confirmed')))[0].n,
    );
    expect(await size({ kind: 'all' })).toBe(confirmedTotal);
    expect(await size({ kind: 'owners', bookId: other.id, format: 'ebook' })).toBe(1);
    expect(await size({ kind: 'owners', bookId: other.id, format: 'paperback' })).toBe(1);
    expect(await size({ kind: 'owners', bookId: other.id, format: 'audiobook' })).toBe(0);
    expect(await size({ kind: 'pre-order', bookId: book.id })).toBe(1);
    expect(await size({ kind: 'pre-order', bookId: other.id })).toBe(0);
    // Bought nothing: everyone confirmed except the ebook owner, the pre-orderer and the buyer by address.
    expect(await size({ kind: 'no-purchase' })).toBe(confirmedTotal - 3);
    const refusal = await agent.post('/api/admin/broadcasts/audience-size', { audience: { kind: 'pre-order' } });
    expect(refusal.statusCode).toBe(400);
    expect(refusal.json().message).toContain(BROADCAST_MESSAGES.book);
  });

  it('previews the mail before saving: the cleaned body in the mail frame, and its plain text', async () => {
    const res = await agent.post('/api/admin/broadcasts/preview', { subject: 'Preview', previewText: 'Peek', body: draft.body });
    expect(res.statusCode).toBe(200);
    const { html, text } = res.json();
    expect(html).toContain('<h1 style="font-size:24px;color:#f7f1e6">Preview</h1>');
    expect(html).toContain('href="https://www.example.com/blog/first-look"');
    expect(html).not.toContain('<script');
    expect(text).toContain('the first look (https://www.example.com/blog/first-look)');
    const bad = await agent.post('/api/admin/broadcasts/preview', { subject: '', previewText: '', body: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(BROADCAST_MESSAGES.subject);
  });

  it('"Send a test" goes to the author only, as subscribers will see it', async () => {
    const id = (await agent.post('/api/admin/broadcasts', { ...draft, subject: 'Test me' })).json().id;
    const res = await agent.post(`/api/admin/broadcasts/${id}/test`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: `A test was sent to ${adminEmail}` });
    await deliver();
    const mails = received('[Test] Test me');
    expect(mails.map((m) => m.to)).toEqual([[adminEmail]]);
    expect((await agent.get(`/api/admin/broadcasts/${id}`)).json()).toMatchObject({ status: 'draft', counts: { recipients: 0 } });
    expect((await agent.post('/api/admin/broadcasts/999999/test', {})).statusCode).toBe(404);
  });

  it('schedules, refuses a time in the past, cancels while scheduled, and sends at the time', async () => {
    const id = (await agent.post('/api/admin/broadcasts', { ...draft, subject: 'Later' })).json().id;
    const past = await agent.post(`/api/admin/broadcasts/${id}/send`, { sendAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(BROADCAST_MESSAGES.sendAtPast);
    const garbled = await agent.post(`/api/admin/broadcasts/${id}/send`, { sendAt: 'tomorrow' });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().message).toContain(BROADCAST_MESSAGES.sendAt);
    expect((await agent.get(`/api/admin/broadcasts/${id}`)).json().status).toBe('draft');
    expect((await agent.post(`/api/admin/broadcasts/${id}/cancel`, {})).json()).toMatchObject({ message: BROADCAST_MESSAGES.notScheduled });

    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const scheduled = await agent.post(`/api/admin/broadcasts/${id}/send`, { sendAt: at });
    expect(scheduled.json()).toMatchObject({ status: 'scheduled', sendAt: at });
    const edit = await agent.put(`/api/admin/broadcasts/${id}`, draft);
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe(BROADCAST_MESSAGES.notDraft);
    expect((await agent.post(`/api/admin/broadcasts/${id}/send`, {})).statusCode).toBe(409);

    const cancelled = await agent.post(`/api/admin/broadcasts/${id}/cancel`, {});
    expect(cancelled.json()).toMatchObject({ status: 'draft', sendAt: null });
    t.clock.advance(2 * 3_600_000);
    await deliver();
    expect(received('Later')).toEqual([]);

    const later = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await agent.post(`/api/admin/broadcasts/${id}/send`, { sendAt: later });
    await deliver();
    expect(received('Later')).toEqual([]);
    t.clock.advance(61_000);
    await deliver();
    const got = (await agent.get(`/api/admin/broadcasts/${id}`)).json();
    expect(got.status).toBe('sent');
    expect(received('Later').length).toBe(got.counts.sent);
    expect(got.counts.sent).toBe(got.audienceSize);
    expect((await agent.post(`/api/admin/broadcasts/${id}/cancel`, {})).statusCode).toBe(409);
  });

  it('a sent mail has the personal one-click unsubscribe in headers and footer, and plain text beside the HTML', async () => {
    await subscriber('headers@example.com');
    const id = await createAndSend('Headers check');
    const [mail] = received('Headers check').filter((m) => m.to[0] === 'headers@example.com');
    expect(mail).toBeDefined();
    expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(mail, 'Message-ID')).toMatch(/^<broadcast-\d+-\d+@www\.example\.com>$/);
    const link = /^<(https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?[^>]+)>$/.exec(headerOf(mail, 'List-Unsubscribe') ?? '')?.[1];
    expect(link).toBeDefined();
    expect(new URL(link!).searchParams.get('email')).toBe('headers@example.com');
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw).toContain(`Unsubscribe with one click: ${link}`);
    // The body's link goes through the click redirect (decision 0090); the unsubscribe link never does.
    const tracked = clickUrl(new URL('https://www.example.com'), t.app.deps.secret, id, 'https://www.example.com/blog/first-look');
    expect(mail.raw).toContain(`the first look (${tracked})`);
    expect(mail.raw).toContain('A first look at chapter one');
    expect(mail.raw).not.toContain('<script');
  });

  it('one-click unsubscribe is honoured, and the next broadcast does not reach that address', async () => {
    await subscriber('leaver@example.com');
    const before = await createAndSend('Before leaving');
    const [mail] = received('Before leaving').filter((m) => m.to[0] === 'leaver@example.com');
    const link = new URL(/^<(.+)>$/.exec(headerOf(mail, 'List-Unsubscribe')!)![1]);
    const res = await t.app.inject({
      method: 'POST',
      url: link.pathname + link.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(await stateOf('leaver@example.com')).toBe('unsubscribed');
    expect(link.searchParams.get('b')).toBe(String(before));
    expect((await agent.get(`/api/admin/broadcasts/${before}`)).json().counts.unsubscribed).toBe(1);
    // Pressing again, or the same link edited to name another broadcast, counts nothing more.
    const other = new URL(link);
    other.searchParams.set('b', String(before + 1000));
    for (const url of [link, other]) {
      await t.app.inject({ method: 'POST', url: url.pathname + url.search, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    }
    expect((await agent.get(`/api/admin/broadcasts/${before}`)).json().counts.unsubscribed).toBe(1);
    await createAndSend('After leaving');
    expect(received('After leaving').map((m) => m.to[0])).not.toContain('leaver@example.com');
    expect(received('After leaving').length).toBeGreaterThan(0);
    const suppressions = (await agent.get('/api/admin/suppressions')).json();
    expect(suppressions.items).toContainEqual(expect.objectContaining({ email: 'leaver@example.com', state: 'unsubscribed' }));
  });

  it('a broadcast mail already in the outbox is not sent once its address has left', async () => {
    await subscriber('late-leaver@example.com');
    const mail = broadcastMail('late-leaver@example.com', { subject: 'Race', previewText: '', body: '<p>x</p>' }, {
      siteTitle: 'Site',
      publicUrl: new URL('https://www.example.com'),
      unsubscribeLink: 'https://www.example.com/api/newsletter/unsubscribe?email=x&token=y',
    });
    const mailId = await t.app.deps.mailer.enqueue(mail);
    await db().update(newsletterSubscribers).set({ state: 'unsubscribed', unsubscribedAt: t.clock.now() }).where(eq(newsletterSubscribers.email, 'late-leaver@example.com'));
    while ((await t.app.deps.mailer.dispatchDue(100)) > 0);
    expect(received('Race')).toEqual([]);
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
    expect(row).toMatchObject({ status: 'suppressed', text: '', html: null });
  });

  it('a hard bounce (550) marks the address bounced at once, and no later broadcast tries it', async () => {
    await subscriber('gone@example.com');
    const id = await createAndSend('Bounce one');
    expect(await stateOf('gone@example.com')).toBe('bounced');
    const [row] = await db().select().from(mailOutbox).where(sql`${mailOutbox.to} = 'gone@example.com' and ${mailOutbox.kind} = 'broadcast'`);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await agent.get(`/api/admin/broadcasts/${id}`)).json().counts.bounced).toBe(1);
    await createAndSend('Bounce two');
    const tried = await db().select().from(broadcastRecipients).where(eq(broadcastRecipients.email, 'gone@example.com'));
    expect(tried.length).toBe(1);
    expect((await agent.get('/api/admin/suppressions')).json().items).toContainEqual(
      expect.objectContaining({ email: 'gone@example.com', state: 'bounced' }),
    );
    // The public form cannot bring it back.
    const again = await new TestAgent(t.app).request({ method: 'POST', url: '/api/subscribe', payload: { email: 'gone@example.com', name: '' }, remoteAddress: '10.9.9.9' });
    expect(again.statusCode).toBe(200);
    expect(await stateOf('gone@example.com')).toBe('bounced');
  });

  it('a complaint recorded by the admin keeps the address off every broadcast', async () => {
    await subscriber('complainer@example.com');
    const bad = await agent.post('/api/admin/suppressions', { email: 'complainer@example.com', state: 'confirmed' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('State must be bounced or complained');
    expect(await stateOf('complainer@example.com')).toBe('confirmed');
    const res = await agent.post('/api/admin/suppressions', { email: 'complainer@example.com', state: 'complained' });
    expect(res.statusCode).toBe(200);
    expect(await stateOf('complainer@example.com')).toBe('complained');
    await createAndSend('After the complaint');
    expect(received('After the complaint').map((m) => m.to[0])).not.toContain('complainer@example.com');
    // An address never subscribed can be recorded too, so a later sign-up stays off the list.
    await agent.post('/api/admin/suppressions', { email: 'stranger@example.com', state: 'complained' });
    expect(await stateOf('stranger@example.com')).toBe('complained');
  });

  it('every confirmed address gets exactly one copy, and running the job again sends nothing more', async () => {
    const id = await createAndSend('Exactly once');
    const b = (await agent.get(`/api/admin/broadcasts/${id}`)).json();
    const tos = received('Exactly once').map((m) => m.to[0]);
    expect(new Set(tos).size).toBe(tos.length);
    expect(tos.length).toBe(b.counts.sent);
    const confirmed = await db().select({ email: newsletterSubscribers.email }).from(newsletterSubscribers).where(eq(newsletterSubscribers.state, 'confirmed'));
    expect(tos.sort()).toEqual(confirmed.map((c) => c.email).sort());
    await t.app.deps.jobs.enqueue('broadcast-send', { broadcastId: id, sendAt: b.sendAt });
    await deliver();
    expect(received('Exactly once').length).toBe(tos.length);
  });
});
