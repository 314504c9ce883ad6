import { eq } from 'drizzle-orm';
import { mailOutbox, webhookFailures } from '../../db/schema';
import { recordWebhookFailure } from '../checkout/webhook-failures';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';

describe('admin System page API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  const admin = async () => signedInAgent(t.app, (await createUser(t.database, { role: 'admin' })).id);

  it('tells the version, database, file store, payments, mail outbox, jobs and webhook failures', async () => {
    await t.database.db.insert(mailOutbox).values([
      { to: 'a@example.com', subject: 'Receipt', text: 'x', kind: 'receipt', status: 'failed', attempts: 8, lastError: 'connect ECONNREFUSED' },
      { to: 'b@example.com', subject: 'Reset', text: 'y', kind: 'password-reset', status: 'kept' },
    ]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(bad.statusCode).toBe(400);

    const agent = await admin();
    const res = await agent.get('/api/admin/system');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      version: '1.0.0',
      database: t.database.kind,
      fileStore: { kind: 'disk' },
      payments: 'local',
      redis: 'not configured',
      smtpConfigured: false,
      mail: { failed: 1, kept: 1, pending: 0 },
      reconciliation: null,
    });
    expect(body.nodeVersion).toMatch(/^v24\./);
    expect(body.webhookFailures).toEqual([]);
    expect(body.forgedWebhooks).toEqual({ last24Hours: 1, last7Days: 1, lastAt: t.clock.now().toISOString() });
  });

  it('counts forged webhooks apart, so a flood of them leaves the real failures in view', async () => {
    await recordWebhookFailure(t.app.deps, { reason: 'mismatch', eventId: 'evt_real_failure' });
    const forge = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
        payload: '{"type":"checkout.session.completed"}',
      });
    for (let i = 0; i < 30; i += 1) expect((await forge()).statusCode).toBe(400);
    const agent = await admin();
    let body = (await agent.get('/api/admin/system')).json();
    expect(body.webhookFailures).toEqual([{ id: expect.any(Number), at: expect.any(String), reason: 'mismatch', eventId: 'evt_real_failure' }]);
    // The one from the first test and these thirty.
    expect(body.forgedWebhooks).toMatchObject({ last24Hours: 31, last7Days: 31 });
    expect(await t.database.db.select().from(webhookFailures)).toHaveLength(1);
    expect(await t.app.deps.metrics.registry.metrics()).toContain('site_webhook_failures_total{reason="invalid-signature"} 31');

    // A day later: yesterday's leave the 24-hour count and stay in the week's.
    t.clock.advance(25 * 3_600_000);
    await forge();
    body = (await agent.get('/api/admin/system')).json();
    expect(body.forgedWebhooks).toEqual({ last24Hours: 1, last7Days: 32, lastAt: t.clock.now().toISOString() });
  });

  it('"Retry" puts failed mail back in the outbox with fresh attempts', async () => {
    const agent = await admin();
    const first = await agent.post('/api/admin/system/mail/retry');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ retried: 1, message: '1 message will be sent again.' });
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'a@example.com'));
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    const again = await agent.post('/api/admin/system/mail/retry');
    expect(again.json()).toEqual({ retried: 0, message: 'No failed messages to retry.' });
    expect((await agent.get('/api/admin/system')).json().mail).toMatchObject({ failed: 0, pending: 1 });
  });

  it('is for admins only', async () => {
    const reader = await signedInAgent(t.app, (await createUser(t.database)).id);
    expect((await reader.get('/api/admin/system')).statusCode).toBe(403);
    expect((await reader.post('/api/admin/system/mail/retry')).statusCode).toBe(403);
  });
});
