import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema';
import { createTestDatabase, TestClock } from '../../test/helpers';
import type { Database } from '../../db/client';
import { Mailer, SMTP_POOL_CONNECTIONS, smtpTransport } from './mail';
import { giftMail } from '../../features/gifts/templates';

interface Received {
  to: string[];
  raw: string;
}

function startSmtp(): Promise<{ server: SMTPServer; port: number; inbox: Received[]; connections: () => number }> {
  const inbox: Received[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c) => (raw += c.toString()));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, port: (server.server.address() as { port: number }).port, inbox, connections: () => connections });
    });
  });
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('mail outbox', () => {
  let database: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  it('delivers queued mail over real SMTP', async () => {
    const smtp = await startSmtp();
    const clock = new TestClock();
    const mailer = new Mailer(database.db, clock, 'Site <site@example.com>', smtpTransport(`smtp://127.0.0.1:${smtp.port}`), silent);
    const id = await mailer.enqueue({ to: 'reader@example.com', subject: 'Hello', text: 'Body text', headers: { 'X-Test': '1' } });
    expect(await mailer.dispatchDue()).toBe(1);
    expect(smtp.inbox).toHaveLength(1);
    expect(smtp.inbox[0].to).toEqual(['reader@example.com']);
    expect(smtp.inbox[0].raw).toContain('Subject: Hello');
    expect(smtp.inbox[0].raw).toContain('X-Test: 1');
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row.status).toBe('sent');
    expect(await mailer.dispatchDue()).toBe(0);
    await new Promise<void>((r) => smtp.server.close(() => r()));
  });

  it('keeps no live secret of a delivered mail: the claim link reaches the reader and leaves the table', async () => {
    const smtp = await startSmtp();
    const mailer = new Mailer(database.db, new TestClock(), 'site@example.com', smtpTransport(`smtp://127.0.0.1:${smtp.port}`), silent);
    const claimUrl = 'https://site.example/gift/LIVE-CLAIM-TOKEN-0123456789';
    const id = await mailer.enqueue(
      giftMail({ to: 'friend@example.com', recipientName: 'Ada', from: 'Sam', message: null, bookTitle: 'What We Owe the Dead', format: 'ebook', claimUrl }),
    );
    // The whole row as text: every column, as a backup would hold it.
    const wholeRow = async () =>
      JSON.stringify(((await database.db.execute(sql`select mail_outbox::text as row from mail_outbox where id = ${id}`)) as unknown as { rows: unknown[] }).rows);
    expect(await wholeRow()).toContain('LIVE-CLAIM-TOKEN-0123456789');

    expect(await mailer.dispatchDue()).toBe(1);
    // Quoted-printable soft line breaks joined: the link as the reader's mail program shows it.
    expect(smtp.inbox[0].raw.replace(/=\r\n/g, '')).toContain(claimUrl);
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'sent', to: 'friend@example.com', kind: 'gift', subject: 'Sam has sent you a gift: What We Owe the Dead', text: '', html: null, headers: null });
    // Nowhere in the row, so nowhere in a backup of it.
    expect(await wholeRow()).not.toContain('LIVE-CLAIM-TOKEN');
    await new Promise<void>((r) => smtp.server.close(() => r()));
  });

  it('keeps mail and retries later when the SMTP server is down', async () => {
    const clock = new TestClock();
    const smtp = await startSmtp();
    const port = smtp.port;
    await new Promise<void>((r) => smtp.server.close(() => r()));
    const mailer = new Mailer(database.db, clock, 'site@example.com', smtpTransport(`smtp://127.0.0.1:${port}`), silent);
    const id = await mailer.enqueue({ to: 'later@example.com', subject: 'Later', text: 'x' });
    expect(await mailer.dispatchDue()).toBe(0);
    let [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toBeTruthy();

    // Not due yet: nothing is tried.
    expect(await mailer.dispatchDue()).toBe(0);
    [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row.attempts).toBe(1);

    // The server comes back on the same port; after the backoff the message goes out.
    const back = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _s, cb) {
        stream.resume();
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((r) => back.listen(port, '127.0.0.1', () => r()));
    clock.advance(60_000);
    expect(await mailer.dispatchDue()).toBe(1);
    [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row.status).toBe('sent');
    await new Promise<void>((r) => back.close(() => r()));
  });

  it('keeps mail in the outbox when no SMTP server is configured', async () => {
    const mailer = new Mailer(database.db, new TestClock(), 'site@example.com', null, silent);
    const id = await mailer.enqueue({ to: 'x@example.com', subject: 'Kept', text: 'x', kind: 'test' });
    expect(await mailer.dispatchDue()).toBe(0);
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: 'kept', kind: 'test', subject: 'Kept' });
  });
});

describe('the site\'s pooled SMTP transport', () => {
  it('sends many mails over a few kept connections, and closes them when asked', async () => {
    const smtp = await startSmtp();
    const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`, { pool: true });
    try {
      const sends = Array.from({ length: 30 }, (_, i) =>
        transport.send({ from: 'site@example.com', to: `reader${i}@example.com`, subject: `Note ${i}`, text: 'Hello' }),
      );
      await Promise.all(sends);
      expect(smtp.inbox).toHaveLength(30);
      expect(smtp.connections()).toBeLessThanOrEqual(SMTP_POOL_CONNECTIONS);
    } finally {
      transport.close?.();
      // The server's close waits for open connections: it ends at once only if the pool let them go.
      const started = Date.now();
      await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});
