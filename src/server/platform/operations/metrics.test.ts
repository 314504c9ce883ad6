import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { buy, featuredBookId } from '../../features/checkout/test-support';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line, e.g. `site_orders_total{format="ebook",source="local"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('needs the bearer token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: 'A valid metrics token is required', code: 'UNAUTHORIZED' });
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('shows process metrics, the request histogram and business counters moving after a purchase', async () => {
    const before = await scrape();
    expect(before).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(before).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    expect(before).toContain('# TYPE http_request_duration_seconds histogram');
    expect(before).toContain('# TYPE site_mail_outbox gauge');
    expect(before).toContain('# TYPE site_job_lag_seconds gauge');

    const featured = 'http_request_duration_seconds_count{method="GET",route="/api/books/featured",status="200"}';
    const checkout = 'http_request_duration_seconds_count{method="POST",route="/api/checkout",status="200"}';
    const orders = 'site_orders_total{format="ebook",source="local"}';
    const downloads = 'site_downloads_total{format="ebook"}';
    const kept = 'site_mail_outbox{status="kept"}';

    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const bookId = await featuredBookId(t.app);
    await buy(agent, bookId, 'ebook');
    const asset = await agent.get(`/api/books/${bookId}/assets?format=ebook`, { auth: 'bearer' });
    const link = await agent.get(`/api/digital-assets/${asset.json().asset.id}/download`, { auth: 'bearer' });
    expect(link.statusCode, link.body).toBe(200);

    const after = await scrape();
    expect(sample(after, featured)).toBe(sample(before, featured) + 1);
    expect(sample(after, checkout)).toBe(sample(before, checkout) + 1);
    expect(sample(after, orders)).toBe(sample(before, orders) + 1);
    expect(sample(after, downloads)).toBe(sample(before, downloads) + 1);
    // The receipt waits in the outbox (no SMTP here).
    expect(sample(after, kept)).toBe(sample(before, kept) + 1);
    // Labels are route patterns, never raw URLs with ids or tokens.
    expect(after).toContain('route="/api/digital-assets/:assetId/download"');
    expect(after).not.toMatch(/route="\/files\/download\/[^:]/);
  });

  it('counts refused webhooks', async () => {
    // The local provider takes no webhooks: any delivery is refused as not genuine.
    const series = 'site_webhook_failures_total{reason="invalid-signature"}';
    const before = sample(await scrape(), series);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(sample(await scrape(), series)).toBe(before + 1);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const t = await createTestApp({ seed: false });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
