import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { broadcastRecipients, mailOutbox, newsletterSubscribers } from '../../db/schema';
import { smtpTransport, type MailMessage } from '../../platform/mail/mail';
import { createTestApp, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { HAND_OFF_BATCH } from './broadcast-delivery';
import { headerOf, startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { confirmedSubscribers } from './broadcast-test-support';

// Memory that does not grow with the list (decision 0106): the sender holds one batch of recipients at a
// time and queues each batch's mails in one statement, so the outbox ids must land on the right recipients.
describe('a broadcast handed to the outbox in batches', () => {
  let t: TestApp;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp({ seed: false, mailTransport: smtpTransport(smtp.url, { pool: true }), env: { PUBLIC_URL: 'https://www.example.com' } });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('never holds more than one batch, and every queued mail is its recipient\'s own', async () => {
    const db = t.database.db;
    const size = HAND_OFF_BATCH * 2 + 50;
    await confirmedSubscribers(db, 'batch', size);
    // Two who left before the send are not in the audience: the batches around them still line up.
    await db
      .update(newsletterSubscribers)
      .set({ state: 'unsubscribed', unsubscribedAt: t.clock.now() })
      .where(sql`${newsletterSubscribers.email} in ('batch7@example.com', 'batch333@example.com')`);

    const batches: number[] = [];
    const mailer = t.app.deps.mailer;
    const enqueueMany = mailer.enqueueMany.bind(mailer);
    mailer.enqueueMany = (messages: MailMessage[], tx) => {
      batches.push(messages.length);
      return enqueueMany(messages, tx);
    };

    const { agent } = await adminAgent(t);
    const created = await agent.post('/api/admin/broadcasts', {
      subject: 'Batches',
      previewText: '',
      body: '<p>One copy each.</p>',
      audience: { kind: 'all' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect((await agent.post(`/api/admin/broadcasts/${id}/send`, {})).statusCode).toBe(200);
    await t.app.deps.jobs.runDue(50);
    while ((await mailer.dispatchDue(100)) > 0);

    expect(Math.max(...batches)).toBeLessThanOrEqual(HAND_OFF_BATCH);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(size - 2);

    const rows = await db
      .select({ subscriberId: broadcastRecipients.subscriberId, email: broadcastRecipients.email, status: broadcastRecipients.status, to: mailOutbox.to, sent: mailOutbox.status })
      .from(broadcastRecipients)
      .leftJoin(mailOutbox, eq(mailOutbox.id, broadcastRecipients.mailId))
      .where(eq(broadcastRecipients.broadcastId, id));
    expect(rows).toHaveLength(size - 2);
    expect(rows.every((r) => r.status === 'handed' && r.to === r.email && r.sent === 'sent')).toBe(true);
    expect(rows.some((r) => r.email === 'batch7@example.com' || r.email === 'batch333@example.com')).toBe(false);

    // At the capture server: one mail per address, each under its own subscriber's Message-ID.
    const idOf = new Map(rows.map((r) => [r.email, r.subscriberId]));
    const mails = smtp.inbox.filter((m) => headerOf(m, 'Subject') === 'Batches');
    expect(mails).toHaveLength(size - 2);
    expect(mails.every((m) => m.to.length === 1)).toBe(true);
    expect(new Set(mails.map((m) => m.to[0])).size).toBe(size - 2);
    for (const mail of mails) {
      expect(headerOf(mail, 'Message-ID')).toBe(`<broadcast-${id}-${idOf.get(mail.to[0])}@www.example.com>`);
    }
  }, 180_000);
});
