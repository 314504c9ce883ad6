/** One purchase intent, one checkout (issue 25 point 2): a repeated request never starts a second payment. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers';
import { TEST_ADDRESS, checkoutSessionsOf, newBuyer, purchasesOf, storeApp } from './test-support';

describe('checkout intents', () => {
  let t: TestApp;
  let bookId: number;
  beforeAll(async () => ({ t, bookId } = await storeApp()));
  afterAll(() => t.close());

  const sessionsOf = (userId: number) => checkoutSessionsOf(t, userId);
  const rowsOf = (userId: number, format: string) => purchasesOf(t, userId, format);
  const key = (n: number) => `intent-key-${String(n).padStart(8, '0')}`;

  it('a repeated request of one purchase intent answers the same payment page, then its confirmation', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const body = { bookId, format: 'paperback', idempotencyKey: key(1) };
    const first = await agent.post('/api/checkout', body);
    expect(first.statusCode).toBe(200);
    const url = first.json().url as string;
    const repeat = await agent.post('/api/checkout', body);
    expect(repeat.json()).toEqual({ url });
    expect(await sessionsOf(user.id)).toHaveLength(1);

    const sessionId = url.split('/').pop()!;
    expect((await agent.post(`/api/checkout/sessions/${sessionId}/pay`, { shippingAddress: TEST_ADDRESS })).json().status).toBe('completed');
    // Browser Back to /checkout after paying: the confirmation, no new payment, no second order.
    const afterPaying = await agent.post('/api/checkout', body);
    expect(afterPaying.statusCode).toBe(200);
    expect(afterPaying.json()).toEqual({ url: `/pay/${sessionId}`, completed: true });
    expect(await sessionsOf(user.id)).toHaveLength(1);
    expect(await rowsOf(user.id, 'paperback')).toHaveLength(1);
  });

  it('a digital purchase repeated after paying answers its confirmation, not "Already in your library"', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const body = { bookId, format: 'ebook', idempotencyKey: key(2) };
    const sessionId = (await agent.post('/api/checkout', body)).json().url.split('/').pop();
    await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect((await agent.post('/api/checkout', body)).json()).toEqual({ url: `/pay/${sessionId}`, completed: true });
    expect(await rowsOf(user.id, 'ebook')).toHaveLength(1);
  });

  it('simultaneous requests of one intent start one checkout', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const body = { bookId, format: 'audiobook', idempotencyKey: key(3) };
    await agent.fetchCsrf();
    const answers = await Promise.all([agent.post('/api/checkout', body), agent.post('/api/checkout', body), agent.post('/api/checkout', body)]);
    const ok = answers.filter((a) => a.statusCode === 200).map((a) => a.json().url);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok).size).toBe(1);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('CHECKOUT_IN_PROGRESS');
    }
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('a cancelled checkout frees its intent: the same key starts a new payment', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const body = { bookId, format: 'audiobook', idempotencyKey: key(4) };
    const first = (await agent.post('/api/checkout', body)).json().url.split('/').pop();
    await agent.post(`/api/checkout/sessions/${first}/cancel`);
    const next = await agent.post('/api/checkout', body);
    expect(next.statusCode).toBe(200);
    expect(next.json().url).not.toBe(`/pay/${first}`);
    expect(next.json().completed).toBeUndefined();
  });

  it('the same key for another format is refused and starts nothing', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    await agent.post('/api/checkout', { bookId, format: 'audiobook', idempotencyKey: key(5) });
    const other = await agent.post('/api/checkout', { bookId, format: 'hardcover', idempotencyKey: key(5) });
    expect(other.statusCode).toBe(409);
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('refuses a malformed key with 400', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    const res = await agent.post('/api/checkout', { bookId, format: 'audiobook', idempotencyKey: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('A valid idempotencyKey is required');
  });
});
