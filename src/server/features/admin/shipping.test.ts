import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, mailOutbox, purchases } from '../../db/schema';
import { smtpTransport } from '../../platform/mail/mail';
import { createTestApp, createUser, signedInAgent, type TestAgent, type TestApp } from '../../test/helpers';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { adminAgent, insertBook, insertPurchase } from './test-fixtures';

describe('Mark shipped with a carrier and tracking number', () => {
  let smtp: SmtpCapture;
  let t: TestApp;
  let agent: TestAgent;
  let bookId: number;
  let reader: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp({ seed: false, mailTransport: smtpTransport(smtp.url) });
    ({ agent } = await adminAgent(t));
    bookId = (await insertBook(t, { featured: true, title: 'What We Owe the Dead' })).id;
    reader = await createUser(t.database, { username: 'parcel-reader', email: 'parcel@example.com' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const hardcover = () => insertPurchase(t, { userId: reader.id, bookId, format: 'hardcover', price: 2499, maxDownloads: 0 });

  it('sends the carrier, tracking number and link in the shipped mail and shows them in the reader\'s orders', async () => {
    const order = await hardcover();
    const res = await agent.post(`/api/admin/orders/${order.id}/ship`, {
      carrier: '  Royal Mail ',
      trackingNumber: 'AB123456789GB',
      trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'shipped',
      carrier: 'Royal Mail',
      trackingNumber: 'AB123456789GB',
      trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    });

    expect(await t.app.deps.mailer.dispatchDue()).toBe(1);
    const mail = smtp.inbox.at(-1)!;
    expect(mail.to).toEqual(['parcel@example.com']);
    expect(mail.raw).toMatch(/Subject: Your hardcover of What We Owe the Dead is on its way/);
    expect(mail.raw).toContain('Carrier: Royal Mail');
    expect(mail.raw).toContain('Tracking number: AB123456789GB');
    expect(mail.raw).toContain('Track your parcel: https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB');

    const mine = await (await signedInAgent(t.app, reader.id)).get('/api/library/orders');
    expect(mine.json().find((o: { id: number }) => o.id === order.id)).toMatchObject({
      status: 'shipped',
      carrier: 'Royal Mail',
      trackingNumber: 'AB123456789GB',
      trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    });
    const [entry] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'order.ship'), eq(auditLog.targetId, String(order.id))));
    expect(entry.details).toMatchObject({ carrier: 'Royal Mail', trackingNumber: 'AB123456789GB' });
  });

  it('takes a carrier and number without a link, and ships untracked when nothing is given', async () => {
    const tracked = await hardcover();
    const res = await agent.post(`/api/admin/orders/${tracked.id}/ship`, { carrier: 'DPD', trackingNumber: '15501234567890', trackingUrl: '' });
    expect(res.json()).toMatchObject({ carrier: 'DPD', trackingNumber: '15501234567890', trackingUrl: null });
    await t.app.deps.mailer.dispatchDue();
    expect(smtp.inbox.at(-1)!.raw).toContain('Tracking number: 15501234567890');
    expect(smtp.inbox.at(-1)!.raw).not.toContain('Track your parcel');

    const untracked = await hardcover();
    const plain = await agent.post(`/api/admin/orders/${untracked.id}/ship`);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ status: 'shipped', carrier: null, trackingNumber: null, trackingUrl: null });
    await t.app.deps.mailer.dispatchDue();
    const mail = smtp.inbox.at(-1)!.raw;
    expect(mail).toContain('has been dispatched today.');
    expect(mail).not.toContain('Tracking number');
  });

  it('refuses half a tracking, a link that is not a web page, and over-long fields, and changes nothing', async () => {
    const order = await hardcover();
    const cases: [Record<string, unknown>, string][] = [
      [{ carrier: 'Royal Mail' }, 'Give the tracking number for this carrier'],
      [{ trackingNumber: 'AB1' }, 'Give the carrier of this tracking number'],
      [{ trackingUrl: 'https://example.com/t/1' }, 'A tracking link needs its carrier and tracking number'],
      [{ carrier: 'Evri', trackingNumber: 'H1', trackingUrl: 'javascript:alert(1)' }, 'The tracking link must be a web address starting with http:// or https://'],
      [{ carrier: 'Evri', trackingNumber: 'H1', trackingUrl: 'ftp://example.com/x' }, 'The tracking link must be a web address starting with http:// or https://'],
      [{ carrier: 'Evri', trackingNumber: 'H1', trackingUrl: 'not a link' }, 'The tracking link must be a web address starting with http:// or https://'],
      [{ carrier: 'x'.repeat(101), trackingNumber: 'H1' }, 'At most 100 characters'],
      [{ carrier: 'Evri', trackingNumber: 42 }, ''],
    ];
    for (const [body, message] of cases) {
      const res = await agent.post(`/api/admin/orders/${order.id}/ship`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (message) expect(JSON.stringify(res.json())).toContain(message);
    }
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, order.id));
    expect(row).toMatchObject({ status: 'completed', shippedAt: null, trackingNumber: null });
    const mail = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'parcel@example.com'));
    expect(mail).toHaveLength(3);
  });

  it('keeps the tracking of a shipped order when it is shipped again', async () => {
    const order = await hardcover();
    await agent.post(`/api/admin/orders/${order.id}/ship`, { carrier: 'Parcelforce', trackingNumber: 'PF1' });
    const again = await agent.post(`/api/admin/orders/${order.id}/ship`, { carrier: 'Evri', trackingNumber: 'H2' });
    expect(again.statusCode).toBe(409);
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, order.id));
    expect(row).toMatchObject({ shippingCarrier: 'Parcelforce', trackingNumber: 'PF1' });
  });
});
