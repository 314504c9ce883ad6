import net from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { mailOutbox } from '../../db/schema';
import { type TestApp, createTestApp } from '../../test/helpers';
import { MAIL_LEASE_MS, smtpTransport } from './mail';
import { freePort } from '../../test/ports';

function smtpOn(port: number, inbox: string[]) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      stream.resume();
      stream.on('end', () => {
        inbox.push(...session.envelope.rcptTo.map((r) => r.address));
        cb();
      });
    },
  });
  return new Promise<SMTPServer>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}


/** Mail goes out through the job runner's mail-dispatch job: soon after queueing, and after an outage. */
describe('mail on the job runner', () => {
  let t: TestApp;
  let port: number;
  const inbox: string[] = [];
  let stop: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ seed: false, mailTransport: smtpTransport(`smtp://127.0.0.1:${port}`) });
    await t.app.deps.jobs.ensureRecurring();
  });
  afterAll(async () => {
    await stop?.();
    await t.close();
  });

  const row = async (id: number) => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0];

  it('SMTP down: the message waits in the outbox, and goes out when the server is back', async () => {
    const id = await t.app.deps.mailer.enqueue({ to: 'waiting@example.com', subject: 'Receipt', text: 'x', kind: 'receipt' });
    expect(await t.app.deps.jobs.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1 });

    const server = await smtpOn(port, inbox);
    try {
      t.clock.advance(60_000);
      expect(await t.app.deps.jobs.runDue()).toBe(1);
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
      expect(inbox).toEqual(['waiting@example.com']);
      const metrics = await t.app.deps.metrics.registry.metrics();
      expect(metrics).toContain('site_mail_failed_total{kind="receipt"} 1');
      expect(metrics).toContain('site_mail_sent_total{kind="receipt"} 1');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('with the runner started, a queued message leaves without waiting for the next poll', async () => {
    const server = await smtpOn(port, inbox);
    try {
      // Nothing is due when the runner starts, and its poll interval is far longer than the test: only the
      // kick after enqueue can send the mail.
      await t.app.deps.jobs.runDue();
      expect(await t.app.deps.jobs.runDue()).toBe(0);
      stop = t.app.deps.jobs.start(10 * 60_000);
      const id = await t.app.deps.mailer.enqueue({ to: 'soon@example.com', subject: 'Welcome', text: 'x', kind: 'welcome' });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (await row(id)).status !== 'sent') await new Promise((r) => setTimeout(r, 100));
      expect((await row(id)).status).toBe('sent');
      expect(inbox).toContain('soon@example.com');
    } finally {
      await stop?.();
      stop = null;
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

/**
 * Two instances on one database: the one that was sending stalls for good (a crash as the others see it),
 * and mail queued on the healthy one leaves once the short mail lease is over, not after the longest lease
 * of any job.
 */
describe('mail after the sending instance dies', () => {
  it('the healthy instance sends the stalled mail and its own within a minute', async () => {
    const port = await freePort();
    const inbox: string[] = [];
    const server = await smtpOn(port, inbox);
    // The crashed sender's mail server connection: accepted, never answered.
    const stalled: net.Socket[] = [];
    const blackHole = net.createServer((socket) => stalled.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', () => resolve()));
    const deadPort = (blackHole.address() as net.AddressInfo).port;

    const crashed = await createTestApp({ seed: false, mailTransport: smtpTransport(`smtp://127.0.0.1:${deadPort}`) });
    const healthy = await createTestApp({
      seed: false,
      database: crashed.database,
      clock: crashed.clock,
      mailTransport: smtpTransport(`smtp://127.0.0.1:${port}`),
    });
    const row = async (id: number) => (await crashed.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0];
    try {
      await crashed.app.deps.jobs.ensureRecurring();
      const first = await crashed.app.deps.mailer.enqueue({ to: 'first@example.com', subject: 'Receipt', text: 'x', kind: 'receipt' });
      const stalledRun = crashed.app.deps.jobs.runDue();
      const deadline = Date.now() + 10_000;
      while (stalled.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(stalled).toHaveLength(1);

      const second = await healthy.app.deps.mailer.enqueue({ to: 'second@example.com', subject: 'Welcome', text: 'x', kind: 'welcome' });
      // Both the dispatch run and the first message are still leased to the stalled instance.
      expect(await healthy.app.deps.jobs.runDue()).toBe(0);
      crashed.clock.advance(MAIL_LEASE_MS - 1);
      expect(await healthy.app.deps.jobs.runDue()).toBe(0);

      crashed.clock.advance(2);
      expect(MAIL_LEASE_MS + 1).toBeLessThan(60_000);
      expect(await healthy.app.deps.jobs.runDue()).toBe(1);
      expect(inbox.sort()).toEqual(['first@example.com', 'second@example.com']);
      expect(await row(first)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(await row(second)).toMatchObject({ status: 'sent', attempts: 1 });

      // The stalled send finally fails; it must not undo the delivery the healthy instance recorded.
      for (const socket of stalled) socket.destroy();
      await stalledRun;
      expect(await row(first)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    } finally {
      for (const socket of stalled) socket.destroy();
      await healthy.close();
      await crashed.close();
      await new Promise<void>((r) => blackHole.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 90_000); // two app instances start and stop in it: on a loaded machine that alone took 30 s
});
