import { SMTPServer } from 'smtp-server';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindleSends, mailOutbox, purchases } from '../../db/schema';
import { smtpTransport } from '../../platform/mail/mail';
import { type TestApp, TestAgent, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { buy, featuredBookId } from '../checkout/test-support';
import { openOwnedFile } from '../library/owned-file';
import { mimeParts } from './test-support';

interface Received {
  to: string[];
  raw: string;
}

describe('Send to Kindle over real SMTP', () => {
  const inbox: Received[] = [];
  let server: SMTPServer;
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      size: 60 * 1024 * 1024,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('latin1') });
          callback();
        });
      },
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)),
    );
    t = await createTestApp({
      env: { MAIL_FROM: 'What We Owe the Dead <books@example.com>' },
      mailTransport: smtpTransport(`smtp://127.0.0.1:${port}`),
    });
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function ebookOwner(displayName = 'Kindle Reader') {
    const user = await createUser(t.database, { displayName });
    const agent = await signedInAgent(t.app, user.id);
    await buy(agent, bookId, 'ebook');
    const [purchase] = await t.database.db
      .select()
      .from(purchases)
      .where(and(eq(purchases.userId, user.id), eq(purchases.format, 'ebook')));
    return { user, agent, purchase };
  }
  const send = (agent: TestAgent, address: string, book = bookId) =>
    agent.post(`/api/library/${book}/ebook/send-to-kindle`, { address });

  it("mails one application/epub+zip attachment, the buyer's own copy, and never spends the download", async () => {
    const { agent, purchase } = await ebookOwner();
    const settings = await agent.get('/api/library/kindle');
    expect(settings.json()).toEqual({ devices: [], senderAddress: 'books@example.com', maxDevices: 3, sendsToday: 0, dailyLimit: 5 });

    const saved = await agent.post('/api/library/kindle/devices', { address: ' Ada_Reader@Kindle.com ' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().address).toBe('ada_reader@kindle.com');

    const res = await send(agent, 'ada_reader@kindle.com');
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ success: true, message: 'On its way to ada_reader@kindle.com. It usually arrives within a few minutes.' });
    await t.app.deps.mailer.dispatchDue();

    const mails = inbox.filter((m) => m.to.includes('ada_reader@kindle.com'));
    expect(mails).toHaveLength(1);
    const parts = mimeParts(mails[0].raw);
    const attachments = parts.filter((p) => p.fileName);
    expect(attachments).toHaveLength(1);
    expect(attachments[0].contentType).toBe('application/epub+zip');
    expect(attachments[0].fileName).toBe('What-We-Owe-the-Dead.epub');
    const body = parts.find((p) => p.contentType === 'text/plain')!;
    expect(body.body.toString('utf8')).toContain('Your copy of What We Owe the Dead is attached');

    const opened = await openOwnedFile(t.app.deps, purchase, 'ebook');
    if (!opened.ok) throw new Error('no copy');
    const copy = opened.file;
    const chunks: Buffer[] = [];
    for await (const c of await copy.read()) chunks.push(Buffer.from(c as Uint8Array));
    expect(attachments[0].body.equals(Buffer.concat(chunks))).toBe(true);
    expect(attachments[0].body.length).toBeLessThanOrEqual(50 * 1024 * 1024);

    const [after] = await t.database.db.select().from(purchases).where(eq(purchases.id, purchase.id));
    expect(after).toMatchObject({ downloadUsed: false, downloadCount: 0 });
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'send-to-kindle'));
    expect(row.status).toBe('sent');
  });

  it('allows five sends a day; the sixth is 429 with a clear message; the admin sees them on the order', async () => {
    const { agent, purchase, user } = await ebookOwner();
    for (let i = 0; i < 5; i += 1) expect((await send(agent, 'five@free.kindle.com')).statusCode).toBe(202);
    const sixth = await send(agent, 'five@free.kindle.com');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({
      code: 'KINDLE_DAILY_LIMIT',
      message: 'You have sent 5 books to your Kindle today, the most for one day. You can send again after midnight UTC.',
    });
    expect((await t.database.db.select().from(kindleSends).where(eq(kindleSends.userId, user.id)))).toHaveLength(5);
    expect((await agent.get('/api/library/kindle')).json()).toMatchObject({ sendsToday: 5, devices: [{ address: 'five@free.kindle.com' }] });
    const [after] = await t.database.db.select().from(purchases).where(eq(purchases.id, purchase.id));
    expect(after.downloadUsed).toBe(false);

    const { agent: admin } = await adminAgent(t);
    const history = await admin.get(`/api/admin/orders/${purchase.id}/kindle-sends`);
    expect(history.statusCode).toBe(200);
    expect(history.json()).toHaveLength(5);
    expect(history.json()[0]).toMatchObject({ address: 'five@free.kindle.com' });
    expect((await agent.get(`/api/admin/orders/${purchase.id}/kindle-sends`)).statusCode).toBe(403);

    // The next UTC day starts a new count.
    t.clock.advance(24 * 60 * 60 * 1000);
    expect((await send(agent, 'five@free.kindle.com')).statusCode).toBe(202);
  });

  it('accepts only Kindle addresses, at most three, and only for an owned e-book', async () => {
    const { agent } = await ebookOwner();
    const bad = await agent.post('/api/library/kindle/devices', { address: 'reader@gmail.com' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Enter your Kindle address, ending in @kindle.com or @free.kindle.com');
    expect((await send(agent, 'someone@kindle.com.evil.example')).statusCode).toBe(400);
    for (const name of ['a', 'b', 'c']) expect((await agent.post('/api/library/kindle/devices', { address: `${name}@kindle.com` })).statusCode).toBe(201);
    const fourth = await agent.post('/api/library/kindle/devices', { address: 'd@kindle.com' });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().message).toBe('You can save up to 3 Kindle addresses. Remove one to add another.');
    // Sending to a fourth, unsaved address is refused the same way.
    expect((await send(agent, 'd@kindle.com')).json().message).toBe('You can save up to 3 Kindle addresses. Remove one to add another.');
    const duplicate = await agent.post('/api/library/kindle/devices', { address: 'A@kindle.com' });
    expect(duplicate.statusCode).toBe(409);

    const devices = (await agent.get('/api/library/kindle')).json().devices as Array<{ id: number }>;
    expect((await agent.delete(`/api/library/kindle/devices/${devices[0].id}`)).statusCode).toBe(200);
    expect((await agent.get('/api/library/kindle')).json().devices).toHaveLength(2);

    const stranger = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await stranger.delete(`/api/library/kindle/devices/${devices[1].id}`)).statusCode).toBe(404);
    const notOwner = await send(stranger, 'x@kindle.com');
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json().message).toBe('You have not purchased the e-book of this book');
    expect((await send(new TestAgent(t.app), 'x@kindle.com')).statusCode).toBe(401);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('ten parallel sends on PostgreSQL: exactly five are accepted', async () => {
    const { agent, user } = await ebookOwner();
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(agent, 'rush@kindle.com')));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([202, 202, 202, 202, 202, 429, 429, 429, 429, 429]);
    expect(await t.database.db.select().from(kindleSends).where(eq(kindleSends.userId, user.id))).toHaveLength(5);
  });
});
