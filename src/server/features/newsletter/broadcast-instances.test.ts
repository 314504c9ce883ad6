import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpTransport, type MailTransport } from '../../platform/mail/mail';
import { systemClock } from '../../platform/security/crypto';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { headerOf, startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { confirmedSubscribers } from './broadcast-test-support';

const LIST = 1_000;

/** Two app instances on one PostgreSQL database share one broadcast; the capture server counts the copies. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('one broadcast, two instances (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let smtp: SmtpCapture;
  const apps: TestApp[] = [];
  const sentBy = [0, 0];
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    database = await createTestDatabase({ poolSize: 10 });
    const real = smtpTransport(smtp.url);
    for (const n of [0, 1]) {
      const counting: MailTransport = {
        send: async (message) => {
          await real.send(message);
          sentBy[n] += 1;
        },
      };
      apps.push(
        await createTestApp({ seed: false, database, mailTransport: counting, clock: systemClock, env: { MAIL_POLL_MS: '200' } }),
      );
    }
    await confirmedSubscribers(database.db, 'pair', LIST);
  }, 60_000);
  afterAll(async () => {
    for (const stop of stops) await stop();
    for (const t of apps) await t.close();
    await database.drop();
    await smtp.close();
  });

  it('every address receives exactly one copy, and both instances send', async () => {
    const { agent } = await adminAgent(apps[0]);
    const created = await agent.post('/api/admin/broadcasts', {
      subject: 'Shared send',
      previewText: '',
      body: '<p>Two instances, one copy each.</p>',
      audience: { kind: 'all' },
    });
    expect(created.json().audienceSize).toBe(LIST);
    for (const t of apps) {
      await t.app.deps.jobs.ensureRecurring();
      stops.push(t.app.deps.jobs.start(200));
    }
    expect((await agent.post(`/api/admin/broadcasts/${created.json().id}/send`, {})).statusCode).toBe(200);

    const deadline = Date.now() + 150_000;
    while (smtp.inbox.length < LIST && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    // The broadcast is over, and both runners have stopped after their runs in flight: no copy is still to come.
    const read = async () => (await agent.get(`/api/admin/broadcasts/${created.json().id}`)).json();
    while ((await read()).status !== 'sent' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    for (const stop of stops.splice(0)) await stop();

    const mails = smtp.inbox.filter((m) => headerOf(m, 'Subject') === 'Shared send');
    const perAddress = new Map<string, number>();
    for (const m of mails) perAddress.set(m.to[0], (perAddress.get(m.to[0]) ?? 0) + 1);
    expect(perAddress.size).toBe(LIST);
    expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
    expect(sentBy[0] + sentBy[1]).toBe(LIST);
    expect(sentBy[0]).toBeGreaterThan(0);
    expect(sentBy[1]).toBeGreaterThan(0);
    const after = await read();
    expect(after.status).toBe('sent');
    expect(after.counts).toMatchObject({ recipients: LIST, sent: LIST, waiting: 0, failed: 0 });
  }, 200_000);
});
