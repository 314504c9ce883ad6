import net from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { mailOutbox } from '../db/schema';
import { type TestApp, createTestApp } from '../test/helpers';
import { smtpTransport } from './mail';

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

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

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
      // A poll interval far longer than the test: only the kick after enqueue can send the mail.
      stop = t.app.deps.jobs.start(10 * 60_000);
      await new Promise((r) => setTimeout(r, 500));
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
